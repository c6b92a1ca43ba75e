// SPDX-License-Identifier: UNLICENSED
pragma solidity 0.8.30;

import {IIdentityRegistry} from "../interfaces/IIdentityRegistry.sol";

/// @title Test-only caller that measures what a launchpad contract pays for the registry's launch check.
/// @notice The figure is gasleft() around the external call, as the caller pays it: argument encoding, the
/// account access, the registry's dispatch, fold and pair slot read, and decoding the answer. With `warm` the
/// registry's account is touched first, as when the launchpad already called it in the same transaction;
/// without, the first touch adds EIP-2929's cold account surcharge.
contract LaunchCheckGasProbe {
    /// The registry has no code.
    error NotAContract();

    function measureLaunchAllowed(
        IIdentityRegistry registry,
        string calldata name,
        string calldata ticker,
        address launcher,
        bool warm
    ) external view returns (uint256 gasUsed, bool allowed) {
        if (warm) _touch(registry);
        uint256 before = gasleft();
        (allowed,,) = registry.launchAllowed(name, ticker, launcher);
        gasUsed = before - gasleft();
    }

    function measureRequireLaunchAllowed(
        IIdentityRegistry registry,
        string calldata name,
        string calldata ticker,
        address launcher,
        bool warm
    ) external view returns (uint256 gasUsed) {
        if (warm) _touch(registry);
        uint256 before = gasleft();
        registry.requireLaunchAllowed(name, ticker, launcher);
        gasUsed = before - gasleft();
    }

    function _touch(IIdentityRegistry registry) private view {
        if (address(registry).code.length == 0) revert NotAContract();
    }
}
