// SPDX-License-Identifier: UNLICENSED
pragma solidity 0.8.30;

import {Ownable2Step} from "./access/Ownable2Step.sol";
import {AggregatorV3Interface} from "./interfaces/AggregatorV3Interface.sol";
import {IIdentityRegistry} from "./interfaces/IIdentityRegistry.sol";
import {FoldV1} from "./libraries/FoldV1.sol";
import {NonReentrant} from "./utils/NonReentrant.sol";

/// @title On-chain authority for token identity reservations on one EVM chain.
/// @notice A launcher (msg.sender) commits to a hidden reservation, reveals it once the commitment has aged,
/// and pays a flat USD tier price, converted to wei through a Chainlink-style feed, to hold a folded
/// name/ticker pair for a fixed window. At most three active holds per wallet; the holder may renew during
/// the last 12 hours. Overpayment is refunded in the same transaction. Contracts can ask whether a launch
/// is allowed, and the registry lists the signers whose off-chain launch decisions are trusted.
contract IdentityRegistry is IIdentityRegistry, Ownable2Step, NonReentrant {
    uint256 public constant FOLD_VERSION = 1;
    uint256 public constant MAX_ACTIVE_PER_WALLET = 3;
    uint256 public constant RENEWAL_WINDOW_SECONDS = 12 hours;
    uint256 public constant MIN_NAME_LENGTH = 1;
    uint256 public constant MAX_NAME_LENGTH = 64;
    uint256 public constant MIN_TICKER_LENGTH = 2;
    uint256 public constant MAX_TICKER_LENGTH = 10;
    /// A commitment older than this is void: a stale one cannot be revealed when the market has moved on.
    uint256 public constant MAX_COMMITMENT_AGE = 24 hours;

    /// Everything a reservation reads besides the tiers and bounds, packed in one slot (one cold read).
    struct Config {
        AggregatorV3Interface priceFeed;
        uint32 maxPriceAge;
        uint8 feedDecimals;
        bool paused;
    }

    /// Sanity bounds on the feed's answer, in its units (one slot).
    struct PriceBounds {
        int128 minAnswer;
        int128 maxAnswer;
    }

    /// One slot per pair. `walletSlot` says which of the holder's three expiry slots mirrors `expiresAt`.
    struct Reservation {
        address launcher;
        uint64 expiresAt;
        uint8 walletSlot;
    }

    /// When a decision signer's signatures count: validFrom <= issuedAt < validUntil (one slot).
    struct SignerWindow {
        uint64 validFrom;
        uint64 validUntil;
    }

    /// Immutable, so reading them costs no storage: changing them means a new registry.
    AggregatorV3Interface private immutable _sequencerUptimeFeed;
    uint32 private immutable _sequencerGracePeriod;
    uint32 private immutable _minCommitmentAge;

    Config private _config;
    /// USD price of each duration tier with 6 decimals, ordered 1 day, 3 days, 7 days, 30 days (one slot).
    uint64[4] private _tierPrices;
    PriceBounds private _priceBounds;
    mapping(bytes32 nameHash => mapping(bytes32 tickerHash => Reservation)) private _reservations;
    /// Expiry of each of a wallet's three reservation slots (one slot per wallet). A slot whose expiry has
    /// passed is free, so an expired reservation releases its slot without any cleanup call.
    mapping(address wallet => uint64[3]) private _walletExpiries;
    /// Keyed by committer: a commitment copied from the mempool lands under the copier and is useless to it.
    mapping(address launcher => mapping(bytes32 commitment => uint64 committedAt)) private _commitments;
    mapping(address signer => SignerWindow) private _decisionSigners;

    constructor(Settings memory settings) Ownable2Step(settings.owner) {
        if (settings.minCommitmentAgeSeconds == 0 || settings.minCommitmentAgeSeconds >= MAX_COMMITMENT_AGE) {
            revert InvalidMinCommitmentAge(settings.minCommitmentAgeSeconds);
        }
        _minCommitmentAge = settings.minCommitmentAgeSeconds;
        _sequencerUptimeFeed = settings.sequencerUptimeFeed;
        _sequencerGracePeriod = settings.sequencerGracePeriodSeconds;
        _setPriceFeed(settings.priceFeed);
        _setMaxPriceAge(settings.maxPriceAgeSeconds);
        _setTierPrices(settings.tierPricesUsdMicros);
        _setPriceBounds(settings.minAnswer, settings.maxAnswer);
    }

    // ----------------------------------------------------------------------------------------------
    // Reservations
    // ----------------------------------------------------------------------------------------------

    /// @inheritdoc IIdentityRegistry
    function commit(bytes32 commitment) external {
        uint64 committedAt = _commitments[msg.sender][commitment];
        // Re-committing a live value would restart its clock for nothing; an expired one may be renewed.
        if (committedAt != 0 && block.timestamp <= committedAt + MAX_COMMITMENT_AGE) {
            revert CommitmentExists(committedAt);
        }
        _commitments[msg.sender][commitment] = uint64(block.timestamp);
        emit Committed(msg.sender, commitment);
    }

    /// @inheritdoc IIdentityRegistry
    function reserve(
        string calldata name,
        string calldata ticker,
        uint32 durationSeconds,
        bytes32 partnerRef,
        bytes32 secret
    ) external payable nonReentrant returns (uint64 expiresAt) {
        Config memory config = _config;
        if (config.paused) revert ReservationsPaused();
        uint256 tier = _tierIndex(durationSeconds);
        (bytes memory foldedName, bytes memory foldedTicker) = _foldPair(name, ticker);
        bytes32 nameHash = keccak256(foldedName);
        bytes32 tickerHash = keccak256(foldedTicker);
        _consumeCommitment(_commitment(nameHash, tickerHash, msg.sender, durationSeconds, partnerRef, secret));

        Reservation storage record = _reservations[nameHash][tickerHash];
        (address holder, uint64 heldUntil) = (record.launcher, record.expiresAt);
        if (block.timestamp < heldUntil) revert PairReserved(holder, heldUntil);

        uint64[3] storage walletExpiries = _walletExpiries[msg.sender];
        uint8 walletSlot = _freeWalletSlot(walletExpiries);
        uint256 feeWei = _feeWei(config, tier);
        uint256 excessWei = _excessOver(feeWei);

        expiresAt = uint64(block.timestamp) + durationSeconds;
        record.launcher = msg.sender;
        record.expiresAt = expiresAt;
        record.walletSlot = walletSlot;
        walletExpiries[walletSlot] = expiresAt;
        emit Reserved(
            nameHash,
            tickerHash,
            msg.sender,
            string(foldedName),
            string(foldedTicker),
            expiresAt,
            durationSeconds,
            feeWei,
            partnerRef
        );
        _refund(excessWei);
    }

    /// @inheritdoc IIdentityRegistry
    function renew(bytes32 nameHash, bytes32 tickerHash, uint32 durationSeconds, bytes32 partnerRef)
        external
        payable
        nonReentrant
        returns (uint64 expiresAt)
    {
        uint256 tier = _tierIndex(durationSeconds);
        Reservation storage record = _reservations[nameHash][tickerHash];
        Reservation memory current = record;
        if (current.launcher != msg.sender) revert NotHolder(current.launcher);
        uint64 opensAt = _renewalOpensAt(current.expiresAt);
        if (block.timestamp < opensAt || block.timestamp >= current.expiresAt) {
            revert OutsideRenewalWindow(opensAt, current.expiresAt);
        }
        uint256 feeWei = _feeWei(_config, tier);
        uint256 excessWei = _excessOver(feeWei);

        expiresAt = current.expiresAt + durationSeconds;
        record.expiresAt = expiresAt;
        _walletExpiries[msg.sender][current.walletSlot] = expiresAt;
        emit Renewed(
            nameHash, tickerHash, msg.sender, current.expiresAt, expiresAt, durationSeconds, feeWei, partnerRef
        );
        _refund(excessWei);
    }

    // ----------------------------------------------------------------------------------------------
    // Views
    // ----------------------------------------------------------------------------------------------

    /// @inheritdoc IIdentityRegistry
    function reservationOf(bytes32 nameHash, bytes32 tickerHash)
        external
        view
        returns (address launcher, uint64 expiresAt, bool active)
    {
        Reservation memory record = _reservations[nameHash][tickerHash];
        return (record.launcher, record.expiresAt, block.timestamp < record.expiresAt);
    }

    /// @inheritdoc IIdentityRegistry
    function commitmentOf(address launcher, bytes32 commitment) external view returns (uint64 committedAt) {
        return _commitments[launcher][commitment];
    }

    /// @inheritdoc IIdentityRegistry
    function makeCommitment(
        string calldata name,
        string calldata ticker,
        address launcher,
        uint32 durationSeconds,
        bytes32 partnerRef,
        bytes32 secret
    ) external pure returns (bytes32) {
        (bytes32 nameHash, bytes32 tickerHash) = _foldedHashes(name, ticker);
        return _commitment(nameHash, tickerHash, launcher, durationSeconds, partnerRef, secret);
    }

    /// @inheritdoc IIdentityRegistry
    function launchAllowed(string calldata name, string calldata ticker, address launcher)
        external
        view
        returns (bool allowed, address holder, uint64 expiresAt)
    {
        return _launchCheck(name, ticker, launcher);
    }

    /// @inheritdoc IIdentityRegistry
    function requireLaunchAllowed(string calldata name, string calldata ticker, address launcher) external view {
        (bool allowed, address holder, uint64 expiresAt) = _launchCheck(name, ticker, launcher);
        if (!allowed) revert LaunchRefused(holder, expiresAt);
    }

    /// @inheritdoc IIdentityRegistry
    function activeReservationCount(address wallet) external view returns (uint256 count) {
        uint64[3] memory expiries = _walletExpiries[wallet];
        for (uint256 i; i < MAX_ACTIVE_PER_WALLET; ++i) {
            if (block.timestamp < expiries[i]) ++count;
        }
    }

    /// @inheritdoc IIdentityRegistry
    function quote(uint32 durationSeconds) external view returns (uint256 feeWei) {
        return _feeWei(_config, _tierIndex(durationSeconds));
    }

    /// @inheritdoc IIdentityRegistry
    function tierPriceUsdMicros(uint32 durationSeconds) external view returns (uint64) {
        return _tierPrices[_tierIndex(durationSeconds)];
    }

    /// @notice USD prices (6 decimals) of the 86400, 259200, 604800 and 2592000 second tiers, in that order.
    function tierPrices() external view returns (uint64[4] memory) {
        return _tierPrices;
    }

    function priceFeed() external view returns (AggregatorV3Interface) {
        return _config.priceFeed;
    }

    function maxPriceAge() external view returns (uint32) {
        return _config.maxPriceAge;
    }

    function paused() external view returns (bool) {
        return _config.paused;
    }

    /// @inheritdoc IIdentityRegistry
    function priceBounds() external view returns (int256 minAnswer, int256 maxAnswer) {
        PriceBounds memory bounds = _priceBounds;
        return (bounds.minAnswer, bounds.maxAnswer);
    }

    /// @inheritdoc IIdentityRegistry
    function sequencerUptimeFeed() external view returns (AggregatorV3Interface) {
        return _sequencerUptimeFeed;
    }

    /// @inheritdoc IIdentityRegistry
    function sequencerGracePeriod() external view returns (uint32) {
        return _sequencerGracePeriod;
    }

    /// @inheritdoc IIdentityRegistry
    function minCommitmentAge() external view returns (uint32) {
        return _minCommitmentAge;
    }

    /// @inheritdoc IIdentityRegistry
    function decisionSignerWindow(address signer) external view returns (uint64 validFrom, uint64 validUntil) {
        SignerWindow memory window = _decisionSigners[signer];
        return (window.validFrom, window.validUntil);
    }

    /// @inheritdoc IIdentityRegistry
    function isDecisionSigner(address signer, uint256 at) external view returns (bool) {
        SignerWindow memory window = _decisionSigners[signer];
        return window.validFrom <= at && at < window.validUntil;
    }

    /// @inheritdoc IIdentityRegistry
    function fold(string calldata input) external pure returns (string memory) {
        return string(FoldV1.fold(bytes(input)));
    }

    /// @inheritdoc IIdentityRegistry
    function identityHashes(string calldata name, string calldata ticker)
        external
        pure
        returns (bytes32 nameHash, bytes32 tickerHash)
    {
        return _foldedHashes(name, ticker);
    }

    // ----------------------------------------------------------------------------------------------
    // Administration
    // ----------------------------------------------------------------------------------------------

    /// @notice Sets the USD prices (6 decimals) of the 1, 3, 7 and 30 day tiers, in that order.
    function setTierPrices(uint64[4] calldata usdMicros) external onlyOwner {
        _setTierPrices(usdMicros);
    }

    function setPriceFeed(AggregatorV3Interface priceFeed_) external onlyOwner {
        _setPriceFeed(priceFeed_);
    }

    function setMaxPriceAge(uint32 maxPriceAgeSeconds) external onlyOwner {
        _setMaxPriceAge(maxPriceAgeSeconds);
    }

    /// @inheritdoc IIdentityRegistry
    function setPriceBounds(int256 minAnswer, int256 maxAnswer) external onlyOwner {
        _setPriceBounds(minAnswer, maxAnswer);
    }

    /// @inheritdoc IIdentityRegistry
    function setDecisionSigner(address signer, uint64 validFrom, uint64 validUntil) external onlyOwner {
        if (signer == address(0)) revert ZeroAddress();
        if (validUntil <= validFrom) revert InvalidSignerWindow(validFrom, validUntil);
        _decisionSigners[signer] = SignerWindow(validFrom, validUntil);
        emit DecisionSignerSet(signer, validFrom, validUntil);
    }

    /// @inheritdoc IIdentityRegistry
    function revokeDecisionSigner(address signer) external onlyOwner {
        SignerWindow memory window = _decisionSigners[signer];
        if (window.validUntil == 0) revert UnknownDecisionSigner(signer);
        uint64 revokedAt = uint64(block.timestamp);
        // Only ever shortens: revoking an already expired signer must not re-open the time since it expired.
        if (window.validUntil > revokedAt) window.validUntil = revokedAt;
        if (window.validFrom > window.validUntil) window.validFrom = window.validUntil;
        _decisionSigners[signer] = window;
        emit DecisionSignerRevoked(signer, revokedAt);
    }

    /// @notice Pauses or resumes new reservations. Renewals and views keep working while paused.
    function setPaused(bool paused_) external onlyOwner {
        _config.paused = paused_;
        emit PausedSet(paused_);
    }

    /// @notice Sends collected fees to the treasury address `to`.
    function withdraw(address payable to, uint256 amountWei) external onlyOwner nonReentrant {
        if (to == address(0)) revert ZeroAddress();
        uint256 balance = address(this).balance;
        if (amountWei > balance) revert InsufficientBalance(balance, amountWei);
        emit Withdrawn(to, amountWei);
        (bool sent,) = to.call{value: amountWei}("");
        if (!sent) revert WithdrawalFailed();
    }

    // ----------------------------------------------------------------------------------------------
    // Internals
    // ----------------------------------------------------------------------------------------------

    function _setTierPrices(uint64[4] memory usdMicros) private {
        for (uint256 i; i < 4; ++i) {
            if (usdMicros[i] == 0) revert ZeroTierPrice();
        }
        _tierPrices = usdMicros;
        emit TierPricesUpdated(usdMicros);
    }

    function _setPriceFeed(AggregatorV3Interface priceFeed_) private {
        if (address(priceFeed_) == address(0)) revert ZeroAddress();
        uint8 decimals = priceFeed_.decimals();
        if (decimals > 18) revert UnsupportedFeedDecimals(decimals);
        _config.priceFeed = priceFeed_;
        _config.feedDecimals = decimals;
        emit PriceFeedUpdated(address(priceFeed_), decimals);
    }

    function _setMaxPriceAge(uint32 maxPriceAgeSeconds) private {
        if (maxPriceAgeSeconds == 0) revert ZeroMaxPriceAge();
        _config.maxPriceAge = maxPriceAgeSeconds;
        emit MaxPriceAgeUpdated(maxPriceAgeSeconds);
    }

    function _setPriceBounds(int256 minAnswer, int256 maxAnswer) private {
        if (minAnswer <= 0 || maxAnswer <= minAnswer || maxAnswer > type(int128).max) {
            revert InvalidPriceBounds(minAnswer, maxAnswer);
        }
        _priceBounds = PriceBounds(int128(minAnswer), int128(maxAnswer));
        emit PriceBoundsUpdated(minAnswer, maxAnswer);
    }

    /// keccak256(abi.encode(nameHash, tickerHash, launcher, durationSeconds, partnerRef, secret)): the layout
    /// the service computes off-chain, so keep it exactly.
    function _commitment(
        bytes32 nameHash,
        bytes32 tickerHash,
        address launcher,
        uint32 durationSeconds,
        bytes32 partnerRef,
        bytes32 secret
    ) private pure returns (bytes32) {
        return keccak256(abi.encode(nameHash, tickerHash, launcher, durationSeconds, partnerRef, secret));
    }

    /// Deletes msg.sender's matured, unexpired `commitment`, so each commitment reserves at most once.
    function _consumeCommitment(bytes32 commitment) private {
        uint64 committedAt = _commitments[msg.sender][commitment];
        if (committedAt == 0) revert CommitmentNotFound();
        uint64 maturesAt = committedAt + _minCommitmentAge;
        if (block.timestamp < maturesAt) revert CommitmentTooNew(maturesAt);
        uint64 expiredAt = committedAt + uint64(MAX_COMMITMENT_AGE);
        if (block.timestamp > expiredAt) revert CommitmentExpired(expiredAt);
        delete _commitments[msg.sender][commitment];
    }

    function _launchCheck(string calldata name, string calldata ticker, address launcher)
        private
        view
        returns (bool allowed, address holder, uint64 expiresAt)
    {
        (bytes32 nameHash, bytes32 tickerHash) = _foldedHashes(name, ticker);
        Reservation storage record = _reservations[nameHash][tickerHash];
        (holder, expiresAt) = (record.launcher, record.expiresAt);
        if (block.timestamp >= expiresAt) return (true, address(0), 0);
        allowed = holder == launcher;
    }

    /// Chainlink's L2 pattern: no price while the sequencer is down, nor during the grace period after it is
    /// back (queued L1 transactions and stale feeds settle then). startedAt 0 is an invalid round: down.
    function _requireSequencerUp() private view {
        AggregatorV3Interface sequencer = _sequencerUptimeFeed;
        if (address(sequencer) == address(0)) return;
        (, int256 status, uint256 startedAt,,) = sequencer.latestRoundData();
        if (status != 0 || startedAt == 0) revert SequencerDown();
        uint256 endsAt = startedAt + _sequencerGracePeriod;
        if (block.timestamp < endsAt) revert SequencerGracePeriodNotOver(endsAt);
    }

    /// Folds both strings and enforces the length bounds of the normalization standard.
    function _foldPair(string calldata name, string calldata ticker)
        private
        pure
        returns (bytes memory foldedName, bytes memory foldedTicker)
    {
        foldedName = FoldV1.fold(bytes(name));
        foldedTicker = FoldV1.fold(bytes(ticker));
        _requireBounds(foldedName.length, foldedTicker.length);
    }

    /// The registry's keys of the pair, `_foldPair` without keeping the folded strings.
    function _foldedHashes(string calldata name, string calldata ticker)
        private
        pure
        returns (bytes32 nameHash, bytes32 tickerHash)
    {
        uint256 nameLength;
        uint256 tickerLength;
        (nameHash, nameLength) = FoldV1.foldedHash(bytes(name));
        (tickerHash, tickerLength) = FoldV1.foldedHash(bytes(ticker));
        _requireBounds(nameLength, tickerLength);
    }

    function _requireBounds(uint256 nameLength, uint256 tickerLength) private pure {
        bool outside;
        // One comparison per range, without branches: below the minimum wraps around to above the range.
        assembly ("memory-safe") {
            outside :=
                or(
                    gt(sub(nameLength, MIN_NAME_LENGTH), sub(MAX_NAME_LENGTH, MIN_NAME_LENGTH)),
                    gt(sub(tickerLength, MIN_TICKER_LENGTH), sub(MAX_TICKER_LENGTH, MIN_TICKER_LENGTH))
                )
        }
        if (outside) revert BadLength();
    }

    /// Index into `_tierPrices` of an offered duration.
    function _tierIndex(uint256 durationSeconds) private pure returns (uint256) {
        if (durationSeconds == 1 days) return 0;
        if (durationSeconds == 3 days) return 1;
        if (durationSeconds == 7 days) return 2;
        if (durationSeconds == 30 days) return 3;
        revert UnsupportedDuration(durationSeconds);
    }

    /// First of the wallet's slots whose reservation has expired (or never existed).
    function _freeWalletSlot(uint64[3] storage walletExpiries) private view returns (uint8) {
        uint64[3] memory expiries = walletExpiries;
        uint64 nextFreeAt = type(uint64).max;
        for (uint8 i; i < MAX_ACTIVE_PER_WALLET; ++i) {
            if (expiries[i] <= block.timestamp) return i;
            if (expiries[i] < nextFreeAt) nextFreeAt = expiries[i];
        }
        revert WalletLimitReached(MAX_ACTIVE_PER_WALLET, nextFreeAt);
    }

    /// The tier's USD price in wei at the feed's answer, rounded up so the treasury is never short.
    function _feeWei(Config memory config, uint256 tier) private view returns (uint256) {
        _requireSequencerUp();
        (, int256 answer,, uint256 updatedAt,) = config.priceFeed.latestRoundData();
        if (answer <= 0) revert InvalidPrice(answer);
        if (updatedAt + config.maxPriceAge < block.timestamp) revert StalePrice(updatedAt, config.maxPriceAge);
        PriceBounds memory bounds = _priceBounds;
        if (answer < bounds.minAnswer || answer > bounds.maxAnswer) {
            revert PriceOutOfBounds(answer, bounds.minAnswer, bounds.maxAnswer);
        }
        // usd = micros / 1e6; wei = usd * 1e18 / (answer / 10^decimals)
        uint256 numerator = uint256(_tierPrices[tier]) * 10 ** (12 + uint256(config.feedDecimals));
        return (numerator + uint256(answer) - 1) / uint256(answer);
    }

    /// Amount sent above `feeWei`; reverts when the payment falls short.
    function _excessOver(uint256 feeWei) private view returns (uint256) {
        if (msg.value < feeWei) revert InsufficientPayment(feeWei, msg.value);
        return msg.value - feeWei;
    }

    /// Returns overpayment to the caller, after all state changes (and under the reentrancy guard).
    function _refund(uint256 excessWei) private {
        if (excessWei == 0) return;
        (bool sent,) = msg.sender.call{value: excessWei}("");
        if (!sent) revert RefundFailed();
    }

    function _renewalOpensAt(uint64 expiresAt) private pure returns (uint64) {
        return expiresAt > RENEWAL_WINDOW_SECONDS ? expiresAt - uint64(RENEWAL_WINDOW_SECONDS) : 0;
    }
}
