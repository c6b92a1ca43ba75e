-- Solana mirror rows are the state of the program's Reservation accounts (docs/indexers.md): each row names the
-- account it mirrors, so an account that is closed or no longer holds a reservation removes its row. NULL on EVM rows.
ALTER TABLE chain_reservations ADD COLUMN reservation_account text;
CREATE INDEX chain_reservations_account ON chain_reservations (chain, reservation_account)
  WHERE reservation_account IS NOT NULL;
