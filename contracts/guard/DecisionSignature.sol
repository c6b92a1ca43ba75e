// SPDX-License-Identifier: UNLICENSED
pragma solidity 0.8.30;

/// @title Strict secp256k1 signer recovery for launch decisions.
/// @notice Accepts one encoding only: 65 bytes r ‖ s ‖ v with s in the lower half of the curve order (EIP-2),
/// v 27 or 28, and a recovered signer other than address(0). Everything else is refused, never normalised:
/// EIP-2098's 64-byte compact form, the mirrored high-s twin of a valid signature, v given as 0/1. So a key has
/// exactly one accepted signature per digest. Modelled on OpenZeppelin's ECDSA.tryRecover (same rules,
/// written for this project): it reports why a signature failed instead of reverting, and the caller picks the
/// error.
library DecisionSignature {
    /// Why recovery failed; None when it succeeded.
    enum Failure {
        None,
        /// The signature is not 65 bytes long. `detail` is its length.
        Length,
        /// s is above half the curve order (the malleable twin). `detail` is s.
        HighS,
        /// v is not 27 or 28. `detail` is v.
        BadV,
        /// The precompile recovered no address (r or s zero, r not on the curve, ...).
        NoSigner
    }

    /// secp256k1's group order n divided by two, rounded down: s must not exceed it.
    uint256 internal constant HALF_ORDER = 0x7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0;

    /// @notice The address whose key signed `digest`, or address(0) with the reason and its detail.
    function tryRecover(bytes32 digest, bytes calldata signature)
        internal
        pure
        returns (address signer, Failure failure, uint256 detail)
    {
        if (signature.length != 65) return (address(0), Failure.Length, signature.length);
        bytes32 r;
        uint256 s;
        uint8 v;
        assembly ("memory-safe") {
            r := calldataload(signature.offset)
            s := calldataload(add(signature.offset, 0x20))
            v := byte(0, calldataload(add(signature.offset, 0x40)))
        }
        if (s > HALF_ORDER) return (address(0), Failure.HighS, s);
        if (v != 27 && v != 28) return (address(0), Failure.BadV, v);
        signer = ecrecover(digest, v, r, bytes32(s));
        if (signer == address(0)) return (address(0), Failure.NoSigner, 0);
        return (signer, Failure.None, 0);
    }
}
