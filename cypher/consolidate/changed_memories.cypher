// Active memories of a layer created or changed since $since (all of them when $since is null), in pages by id.
// mode: read
MATCH (m:Memory)
WHERE m.layer = $layer AND m.status = 'active' AND m.id > $after
  AND ($since IS NULL OR m.created_at >= $since OR m.updated_at >= $since)
RETURN m.id AS id, m.scope AS scope
ORDER BY m.id
LIMIT $page
