// SPDX-License-Identifier: UNLICENSED
pragma solidity 0.8.30;

import {IdentityRegistryErrors} from "../errors/IdentityRegistryErrors.sol";

/// @title Token identity registry: paid, time-boxed reservations of folded name/ticker pairs.
/// @notice Pairs are keyed by keccak256 of the folded name and of the folded ticker (fold v1).
interface IIdentityRegistry is IdentityRegistryErrors {
    /// @notice A pair was reserved by `launcher` until `expiresAt`. Carries the folded strings so that an
    /// indexer never has to re-fold, and the partner attribution given at reservation time.
    event Reserved(
        bytes32 indexed nameHash,
        bytes32 indexed tickerHash,
        address indexed launcher,
        string normalizedName,
        string normalizedTicker,
        uint64 expiresAt,
        uint32 durationSeconds,
        uint256 feeWei,
        bytes32 partnerRef
    );

    /// @notice The holder extended a reservation from `previousExpiresAt` to `expiresAt`.
    event Renewed(
        bytes32 indexed nameHash,
        bytes32 indexed tickerHash,
        address indexed launcher,
        uint64 previousExpiresAt,
        uint64 expiresAt,
        uint32 durationSeconds,
        uint256 feeWei,
        bytes32 partnerRef
    );

    event TierPricesUpdated(uint64[4] usdMicros);
    event PriceFeedUpdated(address indexed priceFeed, uint8 decimals);
    event MaxPriceAgeUpdated(uint32 maxPriceAgeSeconds);
    event PausedSet(bool paused);
    event Withdrawn(address indexed to, uint256 amountWei);

    /// @notice Reserves the folded pair for msg.sender for one of the four tier durations. Pay at least
    /// quote(durationSeconds); the excess is refunded in the same call. partnerRef is emitted as given.
    function reserve(string calldata name, string calldata ticker, uint32 durationSeconds, bytes32 partnerRef)
        external
        payable
        returns (uint64 expiresAt);

    /// @notice Extends the caller's reservation by a tier duration, from its current expiry. Open only
    /// during the 12 hours before expiry. Paid like reserve.
    function renew(bytes32 nameHash, bytes32 tickerHash, uint32 durationSeconds, bytes32 partnerRef)
        external
        payable
        returns (uint64 expiresAt);

    /// @notice The latest record of a pair; active is false once block.timestamp reaches expiresAt.
    function reservationOf(bytes32 nameHash, bytes32 tickerHash)
        external
        view
        returns (address launcher, uint64 expiresAt, bool active);

    /// @notice How many of the wallet's (at most three) reservations are active now.
    function activeReservationCount(address wallet) external view returns (uint256);

    /// @notice Fee in wei for a tier at the feed's current answer; reverts when the price is stale or invalid.
    function quote(uint32 durationSeconds) external view returns (uint256 feeWei);

    /// @notice USD price of a tier with 6 decimals.
    function tierPriceUsdMicros(uint32 durationSeconds) external view returns (uint64);

    /// @notice Fold v1 of any input, without bounds checks.
    function fold(string calldata input) external pure returns (string memory);

    /// @notice keccak256 of the folded name and ticker, as the registry keys them; reverts BadLength when the
    /// folded lengths are out of bounds.
    function identityHashes(string calldata name, string calldata ticker)
        external
        pure
        returns (bytes32 nameHash, bytes32 tickerHash);
}
