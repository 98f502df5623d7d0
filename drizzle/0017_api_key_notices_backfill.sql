-- Custom SQL migration file, put your code below! --
-- The expiry-warning schedule of keys made before it existed (docs/decisions.md §18): the
-- points still ahead of each live key that expires, as a key made now would get.
insert into "api_key_notices" ("key_id", "point", "due_at")
select k."id", p.point, k."expires_at" - p.lead
from "api_keys" k
cross join (values ('30d', interval '30 days'), ('7d', interval '7 days'), ('1d', interval '1 day'), ('expired', interval '0')) as p(point, lead)
where k."expires_at" is not null
  and k."revoked_at" is null
  and k."rotated_at" is null
  and k."expires_at" - p.lead > now()
on conflict do nothing;
