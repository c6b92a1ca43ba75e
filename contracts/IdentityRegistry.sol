// SPDX-License-Identifier: UNLICENSED
pragma solidity 0.8.30;

import {Ownable2Step} from "./access/Ownable2Step.sol";
import {AggregatorV3Interface} from "./interfaces/AggregatorV3Interface.sol";
import {IIdentityRegistry} from "./interfaces/IIdentityRegistry.sol";
import {FoldV1} from "./libraries/FoldV1.sol";
import {NonReentrant} from "./utils/NonReentrant.sol";

/// @title On-chain authority for token identity reservations on one EVM chain.
/// @notice A launcher (msg.sender) pays a flat USD tier price, converted to wei through a Chainlink-style
/// feed, to hold a folded name/ticker pair for a fixed window. At most three active holds per wallet; the
/// holder may renew during the last 12 hours. Overpayment is refunded in the same transaction.
contract IdentityRegistry is IIdentityRegistry, Ownable2Step, NonReentrant {
    uint256 public constant FOLD_VERSION = 1;
    uint256 public constant MAX_ACTIVE_PER_WALLET = 3;
    uint256 public constant RENEWAL_WINDOW_SECONDS = 12 hours;
    uint256 public constant MIN_NAME_LENGTH = 1;
    uint256 public constant MAX_NAME_LENGTH = 64;
    uint256 public constant MIN_TICKER_LENGTH = 2;
    uint256 public constant MAX_TICKER_LENGTH = 10;

    /// Everything a reservation reads besides the tiers, packed in one slot (one cold read).
    struct Config {
        AggregatorV3Interface priceFeed;
        uint32 maxPriceAge;
        uint8 feedDecimals;
        bool paused;
    }

    /// One slot per pair. `walletSlot` says which of the holder's three expiry slots mirrors `expiresAt`.
    struct Reservation {
        address launcher;
        uint64 expiresAt;
        uint8 walletSlot;
    }

    Config private _config;
    /// USD price of each duration tier with 6 decimals, ordered 1 day, 3 days, 7 days, 30 days (one slot).
    uint64[4] private _tierPrices;
    mapping(bytes32 nameHash => mapping(bytes32 tickerHash => Reservation)) private _reservations;
    /// Expiry of each of a wallet's three reservation slots (one slot per wallet). A slot whose expiry has
    /// passed is free, so an expired reservation releases its slot without any cleanup call.
    mapping(address wallet => uint64[3]) private _walletExpiries;

    constructor(
        address initialOwner,
        AggregatorV3Interface priceFeed_,
        uint32 maxPriceAgeSeconds,
        uint64[4] memory tierPricesUsdMicros
    ) Ownable2Step(initialOwner) {
        _setPriceFeed(priceFeed_);
        _setMaxPriceAge(maxPriceAgeSeconds);
        _setTierPrices(tierPricesUsdMicros);
    }

    // ----------------------------------------------------------------------------------------------
    // Reservations
    // ----------------------------------------------------------------------------------------------

    /// @inheritdoc IIdentityRegistry
    function reserve(string calldata name, string calldata ticker, uint32 durationSeconds, bytes32 partnerRef)
        external
        payable
        nonReentrant
        returns (uint64 expiresAt)
    {
        Config memory config = _config;
        if (config.paused) revert ReservationsPaused();
        uint256 tier = _tierIndex(durationSeconds);
        (bytes memory foldedName, bytes memory foldedTicker) = _foldPair(name, ticker);
        bytes32 nameHash = keccak256(foldedName);
        bytes32 tickerHash = keccak256(foldedTicker);

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
    function fold(string calldata input) external pure returns (string memory) {
        return string(FoldV1.fold(bytes(input)));
    }

    /// @inheritdoc IIdentityRegistry
    function identityHashes(string calldata name, string calldata ticker)
        external
        pure
        returns (bytes32 nameHash, bytes32 tickerHash)
    {
        (bytes memory foldedName, bytes memory foldedTicker) = _foldPair(name, ticker);
        return (keccak256(foldedName), keccak256(foldedTicker));
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

    /// Folds both strings and enforces the length bounds of the normalization standard.
    function _foldPair(string calldata name, string calldata ticker)
        private
        pure
        returns (bytes memory foldedName, bytes memory foldedTicker)
    {
        foldedName = FoldV1.fold(bytes(name));
        foldedTicker = FoldV1.fold(bytes(ticker));
        if (
            foldedName.length < MIN_NAME_LENGTH || foldedName.length > MAX_NAME_LENGTH
                || foldedTicker.length < MIN_TICKER_LENGTH || foldedTicker.length > MAX_TICKER_LENGTH
        ) revert BadLength();
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
        (, int256 answer,, uint256 updatedAt,) = config.priceFeed.latestRoundData();
        if (answer <= 0) revert InvalidPrice(answer);
        if (updatedAt + config.maxPriceAge < block.timestamp) revert StalePrice(updatedAt, config.maxPriceAge);
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
