// SPDX-License-Identifier: UNLICENSED
pragma solidity 0.8.30;

import {Ownable2Step} from "./access/Ownable2Step.sol";
import {AggregatorV3Interface} from "./interfaces/AggregatorV3Interface.sol";

/// @title Price feed for local chains and tests, answering like a Chainlink AggregatorV3Interface.
/// @notice Production deployments point the registry at a real Chainlink feed instead. The owner sets the
/// answer and its update time, so local runs can keep a fresh price and tests can make it stale.
contract LocalPriceFeed is AggregatorV3Interface, Ownable2Step {
    struct Round {
        int128 answer;
        uint64 updatedAt;
        uint64 roundId;
    }

    uint8 public immutable override decimals;
    string public override description;
    Round private _latest;

    event AnswerUpdated(int256 indexed current, uint256 indexed roundId, uint256 updatedAt);

    /// The round does not exist: only the latest round is kept.
    error NoDataPresent(uint80 roundId);

    constructor(address initialOwner, uint8 decimals_, string memory description_, int128 initialAnswer)
        Ownable2Step(initialOwner)
    {
        decimals = decimals_;
        description = description_;
        _setRound(initialAnswer, uint64(block.timestamp));
    }

    function version() external pure override returns (uint256) {
        return 4;
    }

    /// @notice Publishes `answer` as of the current block.
    function setAnswer(int128 answer) external onlyOwner {
        _setRound(answer, uint64(block.timestamp));
    }

    /// @notice Publishes `answer` as of `updatedAt` (for instance an old time, to simulate a stale feed).
    function setRoundData(int128 answer, uint64 updatedAt) external onlyOwner {
        _setRound(answer, updatedAt);
    }

    function latestRoundData() external view override returns (uint80, int256, uint256, uint256, uint80) {
        Round memory round = _latest;
        return (round.roundId, round.answer, round.updatedAt, round.updatedAt, round.roundId);
    }

    function getRoundData(uint80 roundId) external view override returns (uint80, int256, uint256, uint256, uint80) {
        Round memory round = _latest;
        if (roundId != round.roundId) revert NoDataPresent(roundId);
        return (round.roundId, round.answer, round.updatedAt, round.updatedAt, round.roundId);
    }

    function _setRound(int128 answer, uint64 updatedAt) private {
        uint64 roundId = _latest.roundId + 1;
        _latest = Round(answer, updatedAt, roundId);
        emit AnswerUpdated(answer, roundId, updatedAt);
    }
}
