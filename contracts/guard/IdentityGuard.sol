// SPDX-License-Identifier: UNLICENSED
pragma solidity 0.8.30;

import {IdentityRegistryErrors} from "../errors/IdentityRegistryErrors.sol";
import {IIdentityRegistry} from "../interfaces/IIdentityRegistry.sol";
import {DecisionSignature} from "./DecisionSignature.sol";
import {IIdentityGuard} from "./interfaces/IIdentityGuard.sol";

/// @title On-chain identity guard for permissionless launchpad factories.
/// @notice A factory inherits this contract and calls one of two checks before it deploys a token:
/// - `_requireLaunchAllowed` (registry only, trustless): refuses the launch when another wallet holds a live
///   reservation of the folded name/ticker pair.
/// - `_consumeDecision` (signed): the same registry check, plus an EIP-712 LaunchDecision signed by one of the
///   registry's trusted decision signers, which covers what only the service knows (bonding and milestone
///   locks, guardian blocks, disputes). The decision must allow exactly this launcher, token and folded pair,
///   on this chain and this factory, before its deadline, and is used at most once.
/// Both fail closed: any revert of the registry reverts the launch.
abstract contract IdentityGuard is IIdentityGuard {
    /// @notice EIP-712 type of the decision the service's EVM decision key signs.
    bytes32 public constant LAUNCH_DECISION_TYPEHASH = keccak256(
        "LaunchDecision(bytes32 nameHash,bytes32 tickerHash,address launcher,address token,uint8 decision,uint64 expiresAt,bytes32 nonce)"
    );
    uint8 public constant DECISION_BLOCK = 0;
    uint8 public constant DECISION_ALLOW = 1;

    bytes32 private constant _DOMAIN_TYPEHASH =
        keccak256("EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)");
    bytes32 private constant _NAME_HASH = keccak256("IdentityGuard");
    bytes32 private constant _VERSION_HASH = keccak256("1");

    IIdentityRegistry private immutable _registry;
    /// The domain separator of the deployment chain, recomputed only if the chain id changes (a fork).
    bytes32 private immutable _cachedDomainSeparator;
    uint256 private immutable _cachedChainId;
    address private immutable _cachedThis;

    mapping(bytes32 digest => bool used) private _usedDecisions;

    constructor(IIdentityRegistry registry) {
        if (address(registry).code.length == 0) revert RegistryNotAContract(address(registry));
        _registry = registry;
        _cachedChainId = block.chainid;
        _cachedThis = address(this);
        _cachedDomainSeparator = _buildDomainSeparator();
        emit IdentityGuardBound(address(registry));
    }

    // ----------------------------------------------------------------------------------------------
    // Views
    // ----------------------------------------------------------------------------------------------

    /// @inheritdoc IIdentityGuard
    function identityRegistry() external view returns (IIdentityRegistry) {
        return _registry;
    }

    /// @inheritdoc IIdentityGuard
    function DOMAIN_SEPARATOR() external view returns (bytes32) {
        return _domainSeparator();
    }

    /// @inheritdoc IIdentityGuard
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
        )
    {
        return (hex"0f", "IdentityGuard", "1", block.chainid, address(this), bytes32(0), new uint256[](0));
    }

    /// @inheritdoc IIdentityGuard
    function launchDecisionDigest(
        bytes32 nameHash,
        bytes32 tickerHash,
        address launcher,
        address token,
        uint8 decision,
        uint64 expiresAt,
        bytes32 nonce
    ) external view returns (bytes32) {
        return _digest(nameHash, tickerHash, launcher, token, decision, expiresAt, nonce);
    }

    /// @inheritdoc IIdentityGuard
    function decisionUsed(bytes32 digest) external view returns (bool) {
        return _usedDecisions[digest];
    }

    // ----------------------------------------------------------------------------------------------
    // The two checks a factory calls before it deploys
    // ----------------------------------------------------------------------------------------------

    /// @notice Registry-only path: reverts the registry's LaunchRefused(holder, expiresAt) when another wallet
    /// holds a live reservation of the folded pair (BadLength when it folds out of bounds). Returns the
    /// registry's keys of the pair, keccak256 of the folded name and ticker.
    function _requireLaunchAllowed(string calldata name, string calldata ticker, address launcher)
        internal
        view
        returns (bytes32 nameHash, bytes32 tickerHash)
    {
        return _registryCheck(name, ticker, launcher);
    }

    /// @notice Signed path: the registry check, then the service's allow decision for exactly these facts,
    /// which is then marked used. `launcher` is the wallet the factory launches for (its msg.sender) and
    /// `token` the address the factory is about to deploy (CREATE2-predicted). Both, the pair's keys from the
    /// registry's fold and this chain and contract enter the EIP-712 digest, so a decision signed for anything
    /// else recovers to an unrelated address and reverts UntrustedDecisionSigner. Returns the pair's keys.
    function _consumeDecision(
        string calldata name,
        string calldata ticker,
        address launcher,
        address token,
        uint64 expiresAt,
        bytes32 nonce,
        bytes calldata signature
    ) internal returns (bytes32 nameHash, bytes32 tickerHash) {
        bytes32 digest;
        address signer;
        (nameHash, tickerHash, digest, signer) =
            _verifyDecision(name, ticker, launcher, token, expiresAt, nonce, signature);
        _usedDecisions[digest] = true;
        emit LaunchDecisionConsumed(digest, signer, launcher, nonce);
    }

    /// @notice Every check of `_consumeDecision` without marking the decision used (so on its own it does not
    /// make a decision single-use: launch through `_consumeDecision`). Returns the pair's keys, the decision's
    /// digest and its signer. Order: deadline, registry, reuse, signature, signer, decision.
    function _verifyDecision(
        string calldata name,
        string calldata ticker,
        address launcher,
        address token,
        uint64 expiresAt,
        bytes32 nonce,
        bytes calldata signature
    ) internal view returns (bytes32 nameHash, bytes32 tickerHash, bytes32 digest, address signer) {
        if (block.timestamp >= expiresAt) revert DecisionExpired(expiresAt);
        // One fold, in the registry: its keys bind the decision to the folded pair, whatever the spelling.
        (nameHash, tickerHash) = _registryCheck(name, ticker, launcher);
        digest = _digest(nameHash, tickerHash, launcher, token, DECISION_ALLOW, expiresAt, nonce);
        if (_usedDecisions[digest]) revert DecisionReused(digest);
        signer = _recover(digest, signature);
        if (!_isTrustedNow(signer)) {
            // Tell a trusted block decision apart from a signature that proves nothing (failure path only).
            bytes32 blockDigest = _digest(nameHash, tickerHash, launcher, token, DECISION_BLOCK, expiresAt, nonce);
            (address blockSigner,,) = DecisionSignature.tryRecover(blockDigest, signature);
            if (blockSigner != address(0) && _isTrustedNow(blockSigner)) revert DecisionNotAllow();
            revert UntrustedDecisionSigner(signer);
        }
    }

    // ----------------------------------------------------------------------------------------------
    // Internals
    // ----------------------------------------------------------------------------------------------

    /// The registry's launch rule, folding once: the pair is free, or `launcher` holds it. Two static calls,
    /// identityHashes(name, ticker) then reservationOf(nameHash, tickerHash), encoded by hand (this is the
    /// launch's hot path): a revert of the registry is re-thrown with its data, an answer too short or out of
    /// range reverts RegistryAnswerInvalid.
    function _registryCheck(string calldata name, string calldata ticker, address launcher)
        private
        view
        returns (bytes32 nameHash, bytes32 tickerHash)
    {
        address registry = address(_registry);
        uint256 identityHashesSelector = uint32(IIdentityRegistry.identityHashes.selector);
        uint256 reservationOfSelector = uint32(IIdentityRegistry.reservationOf.selector);
        uint256 answerInvalid = uint32(RegistryAnswerInvalid.selector);
        address holder;
        uint256 heldUntil;
        uint256 active;
        assembly ("memory-safe") {
            let buffer := mload(0x40)
            // identityHashes(string,string): two offsets, then each string as its length and zero-padded bytes.
            mstore(buffer, shl(224, identityHashesSelector))
            let namePadded := and(add(name.length, 31), not(31))
            mstore(add(buffer, 0x04), 0x40)
            mstore(add(buffer, 0x24), add(0x60, namePadded))
            let at := add(buffer, 0x44)
            mstore(add(at, namePadded), 0) // zero the last word's padding (the length word when empty: set next)
            mstore(at, name.length)
            calldatacopy(add(at, 0x20), name.offset, name.length)
            at := add(at, add(0x20, namePadded))
            let tickerPadded := and(add(ticker.length, 31), not(31))
            mstore(add(at, tickerPadded), 0)
            mstore(at, ticker.length)
            calldatacopy(add(at, 0x20), ticker.offset, ticker.length)
            at := add(at, add(0x20, tickerPadded))
            if iszero(staticcall(gas(), registry, buffer, sub(at, buffer), 0x00, 0x40)) {
                returndatacopy(buffer, 0, returndatasize())
                revert(buffer, returndatasize())
            }
            if lt(returndatasize(), 0x40) {
                mstore(0x00, shl(224, answerInvalid))
                revert(0x00, 0x04)
            }
            nameHash := mload(0x00)
            tickerHash := mload(0x20)
            // reservationOf(bytes32,bytes32) returns (address launcher, uint64 expiresAt, bool active)
            mstore(buffer, shl(224, reservationOfSelector))
            mstore(add(buffer, 0x04), nameHash)
            mstore(add(buffer, 0x24), tickerHash)
            if iszero(staticcall(gas(), registry, buffer, 0x44, buffer, 0x60)) {
                returndatacopy(buffer, 0, returndatasize())
                revert(buffer, returndatasize())
            }
            holder := mload(buffer)
            heldUntil := mload(add(buffer, 0x20))
            active := mload(add(buffer, 0x40))
            if or(lt(returndatasize(), 0x60), or(shr(160, holder), or(shr(64, heldUntil), gt(active, 1)))) {
                mstore(0x00, shl(224, answerInvalid))
                revert(0x00, 0x04)
            }
        }
        if (active != 0 && holder != launcher) {
            revert IdentityRegistryErrors.LaunchRefused(holder, uint64(heldUntil));
        }
    }

    /// Whether the registry trusts `signer`'s decisions now: isDecisionSigner(signer, block.timestamp), which is
    /// validFrom <= block.timestamp < validUntil of decisionSignerWindow(signer). The guard asks for the window
    /// and applies that rule itself: the same answer for about 700 gas less, because the registry dispatches
    /// through a linear chain of selectors where decisionSignerWindow comes first (isDecisionSigner 33rd of 43).
    /// Encoded by hand like _registryCheck.
    function _isTrustedNow(address signer) private view returns (bool trusted) {
        address registry = address(_registry);
        uint256 windowSelector = uint32(IIdentityRegistry.decisionSignerWindow.selector);
        uint256 answerInvalid = uint32(RegistryAnswerInvalid.selector);
        assembly ("memory-safe") {
            mstore(0x00, shl(224, windowSelector))
            mstore(0x04, and(signer, 0xffffffffffffffffffffffffffffffffffffffff))
            if iszero(staticcall(gas(), registry, 0x00, 0x24, 0x00, 0x40)) {
                let buffer := mload(0x40)
                returndatacopy(buffer, 0, returndatasize())
                revert(buffer, returndatasize())
            }
            let validFrom := mload(0x00)
            let validUntil := mload(0x20)
            if or(lt(returndatasize(), 0x40), or(shr(64, validFrom), shr(64, validUntil))) {
                mstore(0x00, shl(224, answerInvalid))
                revert(0x00, 0x04)
            }
            trusted := and(iszero(gt(validFrom, timestamp())), lt(timestamp(), validUntil))
        }
    }

    function _recover(bytes32 digest, bytes calldata signature) private pure returns (address signer) {
        DecisionSignature.Failure failure;
        uint256 detail;
        (signer, failure, detail) = DecisionSignature.tryRecover(digest, signature);
        if (failure == DecisionSignature.Failure.None) return signer;
        if (failure == DecisionSignature.Failure.Length) revert InvalidDecisionSignatureLength(detail);
        if (failure == DecisionSignature.Failure.HighS) revert InvalidDecisionSignatureS(bytes32(detail));
        if (failure == DecisionSignature.Failure.BadV) revert InvalidDecisionSignatureV(uint8(detail));
        revert InvalidDecisionSignature();
    }

    /// keccak256("\x19\x01" ‖ domainSeparator ‖ hashStruct(LaunchDecision)), built in scratch memory.
    function _digest(
        bytes32 nameHash,
        bytes32 tickerHash,
        address launcher,
        address token,
        uint8 decision,
        uint64 expiresAt,
        bytes32 nonce
    ) private view returns (bytes32 digest) {
        bytes32 typeHash = LAUNCH_DECISION_TYPEHASH;
        bytes32 separator = _domainSeparator();
        assembly ("memory-safe") {
            let m := mload(0x40)
            mstore(m, typeHash)
            mstore(add(m, 0x20), nameHash)
            mstore(add(m, 0x40), tickerHash)
            mstore(add(m, 0x60), and(launcher, 0xffffffffffffffffffffffffffffffffffffffff))
            mstore(add(m, 0x80), and(token, 0xffffffffffffffffffffffffffffffffffffffff))
            mstore(add(m, 0xa0), and(decision, 0xff))
            mstore(add(m, 0xc0), and(expiresAt, 0xffffffffffffffff))
            mstore(add(m, 0xe0), nonce)
            let structHash := keccak256(m, 0x100)
            mstore(m, shl(240, 0x1901))
            mstore(add(m, 0x02), separator)
            mstore(add(m, 0x22), structHash)
            digest := keccak256(m, 0x42)
        }
    }

    function _domainSeparator() private view returns (bytes32) {
        if (block.chainid == _cachedChainId && address(this) == _cachedThis) return _cachedDomainSeparator;
        return _buildDomainSeparator();
    }

    function _buildDomainSeparator() private view returns (bytes32) {
        return keccak256(abi.encode(_DOMAIN_TYPEHASH, _NAME_HASH, _VERSION_HASH, block.chainid, address(this)));
    }
}
