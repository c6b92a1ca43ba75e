// SPDX-License-Identifier: UNLICENSED
pragma solidity 0.8.30;

import {DecisionSignature} from "../guard/DecisionSignature.sol";
import {IdentityGuard} from "../guard/IdentityGuard.sol";
import {IIdentityRegistry} from "../interfaces/IIdentityRegistry.sol";
import {FoldV1} from "../libraries/FoldV1.sol";

/// @title Test-only guard that measures its own checks with gasleft(), for the gas bench.
/// @notice Decisions it checks name this contract as verifyingContract. With `warm` the registry's account is
/// touched first, as when the factory already called it in the transaction; without, the first call pays
/// EIP-2929's cold account surcharge.
contract IdentityGuardGasProbe is IdentityGuard {
    constructor(IIdentityRegistry registry) IdentityGuard(registry) {}

    /// The registry view alone: identityHashes (the one fold) and reservationOf.
    function measureRegistryCheck(string calldata name, string calldata ticker, address launcher, bool warm)
        external
        view
        returns (uint256 gasUsed, bytes32 nameHash)
    {
        _warm(warm);
        uint256 before = gasleft();
        (nameHash,) = _requireLaunchAllowed(name, ticker, launcher);
        gasUsed = before - gasleft();
    }

    /// The trusted signer set alone, as the guard asks it: decisionSignerWindow(signer), then
    /// validFrom <= block.timestamp < validUntil.
    function measureSignerCheck(address signer, bool warm) external view returns (uint256 gasUsed, bool trusted) {
        IIdentityRegistry registry = this.identityRegistry();
        _warm(warm);
        uint256 before = gasleft();
        (uint64 validFrom, uint64 validUntil) = registry.decisionSignerWindow(signer);
        trusted = validFrom <= block.timestamp && block.timestamp < validUntil;
        gasUsed = before - gasleft();
    }

    /// The same question through isDecisionSigner(signer, block.timestamp), for comparison.
    function measureIsDecisionSigner(address signer, bool warm)
        external
        view
        returns (uint256 gasUsed, bool trusted)
    {
        IIdentityRegistry registry = this.identityRegistry();
        _warm(warm);
        uint256 before = gasleft();
        trusted = registry.isDecisionSigner(signer, block.timestamp);
        gasUsed = before - gasleft();
    }

    /// The signature alone: strict recovery of `digest`'s signer.
    function measureRecover(bytes32 digest, bytes calldata signature)
        external
        view
        returns (uint256 gasUsed, address signer)
    {
        uint256 before = gasleft();
        (signer,,) = DecisionSignature.tryRecover(digest, signature);
        gasUsed = before - gasleft();
    }

    /// Every check of the signed path (deadline, registry view, digest, reuse, signature, signer set), without
    /// marking the decision used. The decision's single-use slot is touched first: in _consumeDecision its cold
    /// access is paid once, by the mark (read here, written after), so it counts with the mark. It is touched
    /// without the registry (the probe folds itself), so that `warm` decides alone whether this is the
    /// transaction's first touch of the registry.
    function measureVerifyDecision(
        string calldata name,
        string calldata ticker,
        address launcher,
        address token,
        uint64 expiresAt,
        bytes32 nonce,
        bytes calldata signature,
        bool warm
    ) external view returns (uint256 gasUsed, address signer) {
        (bytes32 nameHash,) = FoldV1.foldedHash(bytes(name));
        (bytes32 tickerHash,) = FoldV1.foldedHash(bytes(ticker));
        this.decisionUsed(
            this.launchDecisionDigest(nameHash, tickerHash, launcher, token, DECISION_ALLOW, expiresAt, nonce)
        );
        _warm(warm);
        uint256 before = gasleft();
        (,,, signer) = _verifyDecision(name, ticker, launcher, token, expiresAt, nonce, signature);
        gasUsed = before - gasleft();
    }

    /// The whole signed path: the checks, the single-use mark (a fresh storage slot) and the event.
    function measureConsumeDecision(
        string calldata name,
        string calldata ticker,
        address launcher,
        address token,
        uint64 expiresAt,
        bytes32 nonce,
        bytes calldata signature,
        bool warm
    ) external returns (uint256 gasUsed) {
        _warm(warm);
        uint256 before = gasleft();
        _consumeDecision(name, ticker, launcher, token, expiresAt, nonce, signature);
        gasUsed = before - gasleft();
    }

    function _warm(bool warm) private view {
        if (warm && address(this.identityRegistry()).code.length == 0) revert RegistryNotAContract(address(0));
    }
}
