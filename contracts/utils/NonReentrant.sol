// SPDX-License-Identifier: UNLICENSED
pragma solidity 0.8.30;

/// @notice Reentrancy guard in transient storage (EIP-1153): a few hundred gas instead of a storage slot.
abstract contract NonReentrant {
    bool private transient _entered;

    /// A guarded function was entered again before it returned.
    error ReentrantCall();

    modifier nonReentrant() {
        if (_entered) revert ReentrantCall();
        _entered = true;
        _;
        _entered = false;
    }
}
