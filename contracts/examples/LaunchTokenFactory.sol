// SPDX-License-Identifier: UNLICENSED
pragma solidity 0.8.30;

import {LaunchToken} from "./LaunchToken.sol";

/// @title CREATE2 deployment of LaunchTokens at addresses known before the launch.
/// @notice A token's address follows from this factory, the launcher, the launcher's salt, and the token's
/// name and symbol exactly as spelled. The salt is bound to the launcher, so no other wallet can take a
/// launcher's predicted address first.
abstract contract LaunchTokenFactory {
    /// Each token's supply, all of it minted to the launcher: one billion tokens of 18 decimals.
    uint256 public constant TOKEN_SUPPLY = 1_000_000_000e18;

    /// CREATE2 failed: a token was already deployed at `predicted` (same launcher, salt, name and ticker).
    error TokenDeploymentFailed(address predicted);

    /// @notice `launcher`'s token at `token`; nameHash and tickerHash are the registry's keys of its pair.
    event TokenLaunched(
        address indexed launcher, address indexed token, bytes32 indexed nameHash, bytes32 tickerHash
    );

    /// @notice Where `launch` deploys `launcher`'s token for this name, ticker and salt.
    function predictToken(string calldata name, string calldata ticker, address launcher, bytes32 salt)
        external
        view
        returns (address)
    {
        return _predict(_initCode(name, ticker, launcher), launcher, salt);
    }

    function _initCode(string calldata name, string calldata ticker, address launcher)
        internal
        pure
        returns (bytes memory)
    {
        return abi.encodePacked(type(LaunchToken).creationCode, abi.encode(name, ticker, launcher, TOKEN_SUPPLY));
    }

    function _predict(bytes memory initCode, address launcher, bytes32 salt) internal view returns (address) {
        bytes32 hash =
            keccak256(abi.encodePacked(bytes1(0xff), address(this), _create2Salt(launcher, salt), keccak256(initCode)));
        return address(uint160(uint256(hash)));
    }

    /// Deploys `initCode` for `launcher` and `salt`; `predicted` is _predict's answer for the same arguments.
    function _deploy(bytes memory initCode, address launcher, bytes32 salt, address predicted)
        internal
        returns (address token)
    {
        bytes32 create2Salt = _create2Salt(launcher, salt);
        assembly ("memory-safe") {
            token := create2(0, add(initCode, 0x20), mload(initCode), create2Salt)
        }
        if (token != predicted) revert TokenDeploymentFailed(predicted);
    }

    function _create2Salt(address launcher, bytes32 salt) private pure returns (bytes32) {
        return keccak256(abi.encode(launcher, salt));
    }
}
