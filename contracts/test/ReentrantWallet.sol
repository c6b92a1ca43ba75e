// SPDX-License-Identifier: UNLICENSED
pragma solidity 0.8.30;

/// @title Test-only hostile contract wallet: calls back into a target when it receives ETH, or refuses ETH.
/// @notice Used by the registry tests to prove that refunds and withdrawals cannot be re-entered and that
/// a refused transfer reverts the whole call. It records the revert data of its re-entry attempt instead of
/// bubbling it, so the outer call completes and the test can inspect both the outcome and the state.
contract ReentrantWallet {
    bool public rejectPayments;
    address public target;
    bytes public reentryCall;
    bool public reentryAttempted;
    bool public reentrySucceeded;
    bytes public reentryRevertData;

    /// Forward an arbitrary call (with value) to `target_` as this wallet.
    function execute(address target_, bytes calldata data) external payable returns (bytes memory) {
        (bool ok, bytes memory result) = target_.call{value: msg.value}(data);
        if (!ok) {
            assembly ("memory-safe") {
                revert(add(result, 0x20), mload(result))
            }
        }
        return result;
    }

    /// Arm a single re-entry: the next ETH received triggers `data` against `target_`.
    function armReentry(address target_, bytes calldata data) external {
        target = target_;
        reentryCall = data;
        reentryAttempted = false;
    }

    function setRejectPayments(bool reject) external {
        rejectPayments = reject;
    }

    receive() external payable {
        require(!rejectPayments, "ReentrantWallet: payments refused");
        if (reentryAttempted || reentryCall.length == 0) return;
        reentryAttempted = true;
        (bool ok, bytes memory result) = target.call(reentryCall);
        reentrySucceeded = ok;
        reentryRevertData = result;
    }
}
