// SPDX-License-Identifier: UNLICENSED
pragma solidity 0.8.30;

import {LaunchTokenFactory} from "../examples/LaunchTokenFactory.sol";

/// @title Test-only GuardedLaunchpad without the guard, for the gas bench.
/// @notice Deploys the same token at the same kind of address and emits the same event (with zero keys), so
/// a guarded launch's gas minus this one's is the guard's overhead.
contract UnguardedLaunchpad is LaunchTokenFactory {
    function launch(string calldata name, string calldata ticker, bytes32 salt) external returns (address token) {
        bytes memory initCode = _initCode(name, ticker, msg.sender);
        token = _deploy(initCode, msg.sender, salt, _predict(initCode, msg.sender, salt));
        emit TokenLaunched(msg.sender, token, bytes32(0), bytes32(0));
    }
}
