// SPDX-License-Identifier: UNLICENSED
pragma solidity 0.8.30;

/// @title Test-only stand-in for the registry whose views fail on demand.
/// @notice Answers the three views IdentityGuard reads, and otherwise allows everything: every pair is free
/// (keys are keccak256 of the raw strings) and every signer is trusted forever. So when a guarded launch
/// through it is refused, the failing view is what refused it.
contract RevertingIdentityRegistry {
    enum Failing {
        None,
        IdentityHashes,
        ReservationOf,
        DecisionSignerWindow,
        /// identityHashes returns no data at all.
        EmptyAnswer,
        /// reservationOf answers "free" with a launcher word that is no address (dirty upper bytes).
        MalformedReservation
    }

    error RegistryUnavailable();

    Failing public failing;

    function setFailing(Failing failing_) external {
        failing = failing_;
    }

    function identityHashes(string calldata name, string calldata ticker)
        external
        view
        returns (bytes32 nameHash, bytes32 tickerHash)
    {
        Failing mode = failing;
        if (mode == Failing.IdentityHashes) revert RegistryUnavailable();
        if (mode == Failing.EmptyAnswer) {
            assembly ("memory-safe") {
                return(0, 0)
            }
        }
        return (keccak256(bytes(name)), keccak256(bytes(ticker)));
    }

    function reservationOf(bytes32, bytes32) external view returns (address launcher, uint64 expiresAt, bool active) {
        Failing mode = failing;
        if (mode == Failing.ReservationOf) revert RegistryUnavailable();
        if (mode == Failing.MalformedReservation) {
            assembly ("memory-safe") {
                mstore(0x00, not(0))
                mstore(0x20, 0)
                mstore(0x40, 0)
                return(0x00, 0x60)
            }
        }
        return (address(0), 0, false);
    }

    function decisionSignerWindow(address) external view returns (uint64 validFrom, uint64 validUntil) {
        if (failing == Failing.DecisionSignerWindow) revert RegistryUnavailable();
        return (0, type(uint64).max);
    }
}
