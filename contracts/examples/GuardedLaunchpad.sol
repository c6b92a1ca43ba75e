// SPDX-License-Identifier: UNLICENSED
pragma solidity 0.8.30;

import {IdentityGuard} from "../guard/IdentityGuard.sol";
import {IIdentityRegistry} from "../interfaces/IIdentityRegistry.sol";
import {LaunchTokenFactory} from "./LaunchTokenFactory.sol";

/// @title Example permissionless launchpad that refuses copycat launches itself.
/// @notice Anyone may launch a token, but only through the identity guard: `launch` with the service's signed
/// allow decision for this launcher, token and pair (the registry is checked too), or `launchRegistryOnly`
/// with the registry's check alone. A token is deployed with CREATE2 at predictToken(name, ticker, launcher,
/// salt), the address the decision names.
contract GuardedLaunchpad is IdentityGuard, LaunchTokenFactory {
    constructor(IIdentityRegistry registry) IdentityGuard(registry) {}

    /// @notice Launches msg.sender's token with the service's EIP-712 allow decision for it.
    function launch(
        string calldata name,
        string calldata ticker,
        bytes32 salt,
        uint64 expiresAt,
        bytes32 nonce,
        bytes calldata signature
    ) external returns (address token) {
        bytes memory initCode = _initCode(name, ticker, msg.sender);
        address predicted = _predict(initCode, msg.sender, salt);
        (bytes32 nameHash, bytes32 tickerHash) =
            _consumeDecision(name, ticker, msg.sender, predicted, expiresAt, nonce, signature);
        token = _deploy(initCode, msg.sender, salt, predicted);
        emit TokenLaunched(msg.sender, token, nameHash, tickerHash);
    }

    /// @notice Launches msg.sender's token with the registry's check alone: refused while another wallet
    /// holds a live reservation of the folded pair.
    function launchRegistryOnly(string calldata name, string calldata ticker, bytes32 salt)
        external
        returns (address token)
    {
        (bytes32 nameHash, bytes32 tickerHash) = _requireLaunchAllowed(name, ticker, msg.sender);
        bytes memory initCode = _initCode(name, ticker, msg.sender);
        token = _deploy(initCode, msg.sender, salt, _predict(initCode, msg.sender, salt));
        emit TokenLaunched(msg.sender, token, nameHash, tickerHash);
    }
}
