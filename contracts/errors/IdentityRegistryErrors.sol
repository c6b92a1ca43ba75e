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
    /// The feed's answer lies outside the owner's sanity bounds: a broken or clamped feed is not trusted.
    error PriceOutOfBounds(int256 answer, int256 minAnswer, int256 maxAnswer);
    /// Bounds must satisfy 0 < minAnswer < maxAnswer <= type(int128).max.
    error InvalidPriceBounds(int256 minAnswer, int256 maxAnswer);
    /// The L2 sequencer is down (or its uptime feed has no valid round): prices cannot be trusted.
    error SequencerDown();
    /// The L2 sequencer came back recently; prices are trusted again from `endsAt`.
    error SequencerGracePeriodNotOver(uint256 endsAt);
    /// `msg.value` is below the fee; send at least `requiredWei` (any excess is refunded).
    error InsufficientPayment(uint256 requiredWei, uint256 sentWei);
    /// Returning the excess payment to the caller failed; send the exact fee or accept ETH.
    error RefundFailed();
    /// Only the holder of an active reservation may renew it (`holder` is the recorded launcher).
    error NotHolder(address holder);
    /// Renewal is open only from `opensAt` (12 hours before expiry) until `expiresAt`.
    error OutsideRenewalWindow(uint64 opensAt, uint64 expiresAt);
    /// The caller already committed this value at `committedAt` and it has not expired; reveal it instead.
    error CommitmentExists(uint64 committedAt);
    /// The caller has no commitment for these reveal arguments (never made, made by another wallet, made for
    /// other arguments, or already consumed).
    error CommitmentNotFound();
    /// The commitment is too young to reveal; it can be revealed from `maturesAt`.
    error CommitmentTooNew(uint64 maturesAt);
    /// The commitment expired at `expiredAt`; commit again.
    error CommitmentExpired(uint64 expiredAt);
    /// The minimum commitment age must be at least one second and below the maximum age.
    error InvalidMinCommitmentAge(uint256 minCommitmentAgeSeconds);
    /// The pair is held by `holder` until `expiresAt`, so this launcher may not launch it.
    error LaunchRefused(address holder, uint64 expiresAt);
    /// A signer's window must end after it starts.
    error InvalidSignerWindow(uint64 validFrom, uint64 validUntil);
    /// The address was never made a decision signer.
    error UnknownDecisionSigner(address signer);
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
