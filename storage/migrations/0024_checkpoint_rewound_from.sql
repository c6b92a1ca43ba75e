-- A revert (an EVM reorg, or the unfinalized blocks Ponder takes out and indexes again on every start) removes rows
-- from the mirror that it had already shown. `rewound_from` is how far the mirror had indexed when that happened:
-- until `indexed_number` is back there, the chain's mirror may lack a reservation it showed before, so it does not
-- decide (core/status freshness; docs/indexers.md). NULL: never rewound.
ALTER TABLE chain_checkpoints ADD COLUMN rewound_from bigint;
