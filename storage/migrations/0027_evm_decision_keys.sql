-- Each signing key gains its EVM half (core/keyring/evmDecisionKey.ts): a secp256k1 key whose address the EVM
-- registries trust for EIP-712 launch decisions, sealed under the master key like the Ed25519 key. Rows made
-- before it get one on the next start (ensureSigningKeys), so both columns are null together or set together.
ALTER TABLE signing_keys
  ADD COLUMN evm_address text,
  ADD COLUMN evm_private_key_encrypted text,
  ADD CONSTRAINT signing_keys_evm_key_whole CHECK ((evm_address IS NULL) = (evm_private_key_encrypted IS NULL));
