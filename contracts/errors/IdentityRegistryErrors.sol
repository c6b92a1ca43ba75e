// SPDX-License-Identifier: UNLICENSED
pragma solidity 0.8.30;

/// @notice Every way a registry call can fail. Arguments carry what the caller needs to fix or retry.
interface IdentityRegistryErrors {
    /// The folded name is not 1-64 characters or the folded ticker not 2-10 characters.
    error BadLength();
    /// Only 86400, 259200, 604800 and 2592000 seconds are offered.
    error UnsupportedDuration(uint256 durationSeconds);
    /// New reservations are paused by the owner; renewals still work.
    error ReservationsPaused();
    /// The pair is held until `expiresAt` (by `holder`, possibly the caller: use renew).
    error PairReserved(address holder, uint64 expiresAt);
    /// The caller already holds the maximum number of active reservations; the first frees at `nextFreeAt`.
    error WalletLimitReached(uint256 maxActive, uint64 nextFreeAt);
    /// The price feed answer was last updated at `updatedAt`, older than the `maxPriceAge` bound.
    error StalePrice(uint256 updatedAt, uint256 maxPriceAge);
    /// The price feed answered zero or a negative price.
    error InvalidPrice(int256 answer);
    /// `msg.value` is below the fee; send at least `requiredWei` (any excess is refunded).
    error InsufficientPayment(uint256 requiredWei, uint256 sentWei);
    /// Returning the excess payment to the caller failed; send the exact fee or accept ETH.
    error RefundFailed();
    /// Only the holder of an active reservation may renew it (`holder` is the recorded launcher).
    error NotHolder(address holder);
    /// Renewal is open only from `opensAt` (12 hours before expiry) until `expiresAt`.
    error OutsideRenewalWindow(uint64 opensAt, uint64 expiresAt);
    /// A tier price of zero would make reservations free.
    error ZeroTierPrice();
    /// A staleness bound of zero would reject every price.
    error ZeroMaxPriceAge();
    /// The address must not be zero.
    error ZeroAddress();
    /// Price feeds with more than 18 decimals are not supported.
    error UnsupportedFeedDecimals(uint8 decimals);
    /// The contract holds `balanceWei`, less than the requested withdrawal.
    error InsufficientBalance(uint256 balanceWei, uint256 requestedWei);
    /// Sending the withdrawal to the recipient failed.
    error WithdrawalFailed();
}
