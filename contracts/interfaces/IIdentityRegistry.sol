// SPDX-License-Identifier: UNLICENSED
pragma solidity 0.8.30;

import {IdentityRegistryErrors} from "../errors/IdentityRegistryErrors.sol";
import {AggregatorV3Interface} from "./AggregatorV3Interface.sol";

/// @title Token identity registry: paid, time-boxed reservations of folded name/ticker pairs.
/// @notice Pairs are keyed by keccak256 of the folded name and of the folded ticker (fold v1). A new
/// reservation is sealed before it is revealed: commit(makeCommitment(...)), wait minCommitmentAge, then
/// reserve(...) with the same arguments, so a reservation seen in the mempool cannot be copied.
interface IIdentityRegistry is IdentityRegistryErrors {
    /// @notice Everything fixed at deployment, in one argument.
    /// @dev minAnswer and maxAnswer are in the feed's units (its decimals). A zero sequencerUptimeFeed means
    /// no sequencer check (L1 chains). minCommitmentAgeSeconds is at least 1, so a reveal always lands in a
    /// later block than its commitment.
    struct Settings {
        address owner;
        AggregatorV3Interface priceFeed;
        uint32 maxPriceAgeSeconds;
        uint64[4] tierPricesUsdMicros;
        int256 minAnswer;
        int256 maxAnswer;
        AggregatorV3Interface sequencerUptimeFeed;
        uint32 sequencerGracePeriodSeconds;
        uint32 minCommitmentAgeSeconds;
    }

    /// @notice `launcher` sealed a reservation: only the hash is public until it is revealed.
    event Committed(address indexed launcher, bytes32 indexed commitment);

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
    /// @notice Feed answers outside [minAnswer, maxAnswer] are refused from now on.
    event PriceBoundsUpdated(int256 minAnswer, int256 maxAnswer);
    event PausedSet(bool paused);
    event Withdrawn(address indexed to, uint256 amountWei);
    /// @notice Decisions signed by `signer` are trusted when issued in [validFrom, validUntil).
    event DecisionSignerSet(address indexed signer, uint64 validFrom, uint64 validUntil);
    /// @notice `signer` is no longer trusted from `revokedAt`; its validUntil became min(validUntil, revokedAt).
    event DecisionSignerRevoked(address indexed signer, uint64 revokedAt);

    /// @notice Seals a reservation. Free, keyed by msg.sender: a copied commitment is stored under the
    /// copier, whose reveal would hash another launcher and so never match it.
    function commit(bytes32 commitment) external;

    /// @notice The commitment reserve recomputes: keccak256(abi.encode(nameHash, tickerHash, launcher,
    /// durationSeconds, partnerRef, secret)), hashes of the folded strings. Reverts BadLength like reserve.
    function makeCommitment(
        string calldata name,
        string calldata ticker,
        address launcher,
        uint32 durationSeconds,
        bytes32 partnerRef,
        bytes32 secret
    ) external pure returns (bytes32);

    /// @notice When `launcher` committed `commitment` (0: never, or already revealed). An expired one keeps
    /// its time until it is committed again.
    function commitmentOf(address launcher, bytes32 commitment) external view returns (uint64 committedAt);

    /// @notice Reveals msg.sender's matured commitment and reserves the folded pair for one of the four tier
    /// durations. Pay at least quote(durationSeconds); the excess is refunded in the same call. partnerRef
    /// is emitted as given.
    function reserve(
        string calldata name,
        string calldata ticker,
        uint32 durationSeconds,
        bytes32 partnerRef,
        bytes32 secret
    ) external payable returns (uint64 expiresAt);

    /// @notice Extends the caller's reservation by a tier duration, from its current expiry. Open only
    /// during the 12 hours before expiry. Paid like reserve; needs no commitment (only the holder renews).
    function renew(bytes32 nameHash, bytes32 tickerHash, uint32 durationSeconds, bytes32 partnerRef)
        external
        payable
        returns (uint64 expiresAt);

    /// @notice The latest record of a pair; active is false once block.timestamp reaches expiresAt.
    function reservationOf(bytes32 nameHash, bytes32 tickerHash)
        external
        view
        returns (address launcher, uint64 expiresAt, bool active);

    /// @notice Whether `launcher` may launch the pair now: yes when no reservation is live or `launcher`
    /// holds it. Folds on-chain, so a caller cannot point at another pair's key. holder and expiresAt
    /// describe the live reservation (zero when there is none). Reverts only with BadLength.
    function launchAllowed(string calldata name, string calldata ticker, address launcher)
        external
        view
        returns (bool allowed, address holder, uint64 expiresAt);

    /// @notice launchAllowed that reverts LaunchRefused(holder, expiresAt) instead of answering false.
    function requireLaunchAllowed(string calldata name, string calldata ticker, address launcher) external view;

    /// @notice How many of the wallet's (at most three) reservations are active now.
    function activeReservationCount(address wallet) external view returns (uint256);

    /// @notice Fee in wei for a tier at the feed's current answer; reverts when the price is stale, out of
    /// bounds or invalid, or while the sequencer is down or in its grace period.
    function quote(uint32 durationSeconds) external view returns (uint256 feeWei);

    /// @notice USD price of a tier with 6 decimals.
    function tierPriceUsdMicros(uint32 durationSeconds) external view returns (uint64);

    /// @notice The feed answers the registry accepts, in the feed's units, both inclusive.
    function priceBounds() external view returns (int256 minAnswer, int256 maxAnswer);

    /// @notice The L2 sequencer uptime feed (zero: no check) and the grace period after it comes back.
    function sequencerUptimeFeed() external view returns (AggregatorV3Interface);

    function sequencerGracePeriod() external view returns (uint32);

    /// @notice Seconds a commitment must age before it can be revealed (at most 24 hours after commit).
    function minCommitmentAge() external view returns (uint32);

    /// @notice Refuses feed answers outside [minAnswer, maxAnswer], in the feed's units. Switching to a feed
    /// of other decimals needs new bounds too (until then every answer is refused: the registry fails closed).
    function setPriceBounds(int256 minAnswer, int256 maxAnswer) external;

    /// @notice Trusts `signer`'s launch decisions issued in [validFrom, validUntil). Replaces any window.
    function setDecisionSigner(address signer, uint64 validFrom, uint64 validUntil) external;

    /// @notice Stops trusting `signer` from this block on; earlier decisions inside its window stay valid.
    function revokeDecisionSigner(address signer) external;

    /// @notice The window of `signer` (both zero: never set).
    function decisionSignerWindow(address signer) external view returns (uint64 validFrom, uint64 validUntil);

    /// @notice Whether a decision `signer` issued at time `at` is trusted: validFrom <= at < validUntil.
    function isDecisionSigner(address signer, uint256 at) external view returns (bool);

    /// @notice Fold v1 of any input, without bounds checks.
    function fold(string calldata input) external pure returns (string memory);

    /// @notice keccak256 of the folded name and ticker, as the registry keys them; reverts BadLength when the
    /// folded lengths are out of bounds.
    function identityHashes(string calldata name, string calldata ticker)
        external
        pure
        returns (bytes32 nameHash, bytes32 tickerHash);
}
