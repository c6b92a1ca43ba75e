// SPDX-License-Identifier: UNLICENSED
pragma solidity 0.8.30;

import {AggregatorV3Interface} from "../interfaces/AggregatorV3Interface.sol";

/// @title Test-only L2 sequencer uptime feed, answering like Chainlink's: 0 means up, 1 means down, and
/// startedAt is when the sequencer last changed status (0 for an invalid round).
/// @notice Anyone may set it: it is never deployed outside tests.
contract LocalSequencerUptimeFeed is AggregatorV3Interface {
    int256 private _status;
    uint256 private _startedAt;
    uint256 private _updatedAt;
    uint80 private _roundId;

    function decimals() external pure returns (uint8) {
        return 0;
    }

    function description() external pure returns (string memory) {
        return "L2 Sequencer Uptime Status Feed (test)";
    }

    function version() external pure returns (uint256) {
        return 1;
    }

    /// @notice Publishes `status` (0 up, 1 down) that began at `startedAt`.
    function setStatus(int256 status, uint256 startedAt) external {
        _status = status;
        _startedAt = startedAt;
        _updatedAt = block.timestamp;
        ++_roundId;
    }

    function latestRoundData() external view returns (uint80, int256, uint256, uint256, uint80) {
        return (_roundId, _status, _startedAt, _updatedAt, _roundId);
    }

    function getRoundData(uint80) external view returns (uint80, int256, uint256, uint256, uint80) {
        return (_roundId, _status, _startedAt, _updatedAt, _roundId);
    }
}
