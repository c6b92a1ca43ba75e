-- The worker's announcement pass prunes the rows of holds that ended a week ago or more
-- (services/reservations/holdAnnouncementPass.ts): found by their end, without reading the live ones.
CREATE INDEX hold_announcements_expiry ON hold_announcements (expires_at);
