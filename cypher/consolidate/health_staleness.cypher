// Health report: active memories by days since they happened or were last used (recalled or restated after being written), in buckets.
// mode: read
MATCH (m:Memory {status: 'active'})
WITH m, CASE WHEN m.last_accessed_at > m.created_at THEN m.last_accessed_at END AS used
WITH CASE WHEN used > m.occurred_at THEN used ELSE coalesce(m.occurred_at, m.created_at) END AS since
WITH duration.inDays(since, $now).days AS days
WITH CASE WHEN days < 7 THEN '0-7d' WHEN days < 30 THEN '7-30d' WHEN days < 90 THEN '30-90d'
          WHEN days < 180 THEN '90-180d' ELSE '180d+' END AS bucket
RETURN bucket, count(*) AS n
