// SPDX-License-Identifier: UNLICENSED
pragma solidity 0.8.30;

import {IIdentityRegistry} from "../../interfaces/IIdentityRegistry.sol";

/// @title What a launchpad factory guarded by IdentityGuard exposes: its errors, events and views.
/// @notice Besides these errors a guarded launch surfaces two of the registry's own, unchanged (same selector
/// and arguments): LaunchRefused(address holder, uint64 expiresAt) when another wallet holds a live
/// reservation of the folded pair, and BadLength() when the name or ticker folds out of bounds. Any other
/// revert of the registry is passed on as it is: the launch never goes through when the registry fails.
interface IIdentityGuard {
    /// The registry given to the constructor has no code.
    error RegistryNotAContract(address registry);
    /// The registry answered a view with too few bytes or with values out of their types' range.
    error RegistryAnswerInvalid();
    /// The decision allowed launches before `expiresAt` only (block.timestamp < expiresAt).
    error DecisionExpired(uint64 expiresAt);
    /// The decision with this EIP-712 digest was already used: each decision launches once.
    error DecisionReused(bytes32 digest);
    /// Only 65-byte signatures (r, s, v) are accepted; EIP-2098 compact signatures are refused.
    error InvalidDecisionSignatureLength(uint256 length);
    /// s lies in the upper half of the curve order: the malleable twin of a signature is refused.
    error InvalidDecisionSignatureS(bytes32 s);
    /// v must be 27 or 28.
    error InvalidDecisionSignatureV(uint8 v);
    /// The signature recovers to no address.
    error InvalidDecisionSignature();
    /// The signature recovers to `signer`, which the registry does not trust now (never set, revoked, or
    /// outside its decisionSignerWindow). A decision signed for another launcher, token, pair, deadline, chain
    /// or factory recovers to an unrelated address and ends here too.
    error UntrustedDecisionSigner(address signer);
    /// A trusted signer signed these facts, but its decision is block, not allow.
    error DecisionNotAllow();

    /// @notice The guard obeys `registry` (fixed at construction).
    event IdentityGuardBound(address indexed registry);

    /// @notice `launcher` used the allow decision `digest`, signed by `signer` with the service's `nonce`.
    event LaunchDecisionConsumed(
        bytes32 indexed digest, address indexed signer, address indexed launcher, bytes32 nonce
    );

    /// @notice The registry whose reservations and decision signers the guard obeys.
    function identityRegistry() external view returns (IIdentityRegistry);

    /// @notice The EIP-712 domain separator: name "IdentityGuard", version "1", this chain, this contract.
    function DOMAIN_SEPARATOR() external view returns (bytes32);

    /// @notice ERC-5267: the EIP-712 domain's fields (0x0f: name, version, chainId, verifyingContract).
    function eip712Domain()
        external
        view
        returns (
            bytes1 fields,
            string memory name,
            string memory version,
            uint256 chainId,
            address verifyingContract,
            bytes32 salt,
            uint256[] memory extensions
        );

    /// @notice The EIP-712 digest of a LaunchDecision for this factory: what the decision key signs.
    function launchDecisionDigest(
        bytes32 nameHash,
        bytes32 tickerHash,
        address launcher,
        address token,
        uint8 decision,
        uint64 expiresAt,
        bytes32 nonce
    ) external view returns (bytes32);

    /// @notice Whether the decision with this digest was already used.
    function decisionUsed(bytes32 digest) external view returns (bool);
}
