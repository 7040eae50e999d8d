// Health report: active memories by days since last use, in buckets.
// mode: read
MATCH (m:Memory {status: 'active'})
WITH duration.inDays(coalesce(m.last_accessed_at, m.created_at), $now).days AS days
WITH CASE WHEN days < 7 THEN '0-7d' WHEN days < 30 THEN '7-30d' WHEN days < 90 THEN '30-90d'
          WHEN days < 180 THEN '90-180d' ELSE '180d+' END AS bucket
RETURN bucket, count(*) AS n
