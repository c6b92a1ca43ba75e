// SPDX-License-Identifier: UNLICENSED
pragma solidity 0.8.30;

/// @title Normalization standard version 1, applied byte by byte on-chain.
/// @notice a-z fold to A-Z; digits 0 1 3 4 5 7 8 fold to O I E A S T B, and 2 6 9 are kept; the dollar
/// sign folds to S and the at sign to A; every other byte (whitespace, punctuation, control characters and
/// every byte of 0x80 or above, so all non-ASCII text) is dropped.
library FoldV1 {
    /// Output byte for each input byte 0x20-0x7f; zero means "drop". Every other byte is dropped.
    uint256 private constant TABLE_20_3F = 0x000000005300000000000000000000004f493245415336544239000000000000;
    uint256 private constant TABLE_40_5F = 0x414142434445464748494a4b4c4d4e4f505152535455565758595a0000000000;
    uint256 private constant TABLE_60_7F = 0x004142434445464748494a4b4c4d4e4f505152535455565758595a0000000000;

    /// @notice Folds `input`; the result may be empty or longer than any bound (callers check bounds).
    function fold(bytes calldata input) internal pure returns (bytes memory folded) {
        assembly ("memory-safe") {
            // A 256-byte lookup table in fresh memory (0x00-0x1f and 0x80-0xff all map to zero), followed by
            // the output buffer. A full table keeps the per-byte loop free of branches.
            let table := mload(0x40)
            mstore(table, 0)
            mstore(add(table, 0x20), TABLE_20_3F)
            mstore(add(table, 0x40), TABLE_40_5F)
            mstore(add(table, 0x60), TABLE_60_7F)
            mstore(add(table, 0x80), 0)
            mstore(add(table, 0xa0), 0)
            mstore(add(table, 0xc0), 0)
            mstore(add(table, 0xe0), 0)
            folded := add(table, 0x100)
            let out := add(folded, 0x20)
            // Always write, advance only for a kept byte: a dropped byte is overwritten next.
            function put(out_, table_, b) -> next {
                let c := byte(0, mload(add(table_, b)))
                mstore8(out_, c)
                next := add(out_, iszero(iszero(c)))
            }
            // Unrolled: eight bytes per iteration from one calldata word, then a group of four if at least four
            // remain, then the last zero to three one by one.
            let p := input.offset
            let end := add(p, input.length)
            for { let end8 := sub(end, and(input.length, 7)) } lt(p, end8) { p := add(p, 8) } {
                let w := calldataload(p)
                out := put(out, table, byte(0, w))
                out := put(out, table, byte(1, w))
                out := put(out, table, byte(2, w))
                out := put(out, table, byte(3, w))
                out := put(out, table, byte(4, w))
                out := put(out, table, byte(5, w))
                out := put(out, table, byte(6, w))
                out := put(out, table, byte(7, w))
            }
            if and(input.length, 4) {
                let w := calldataload(p)
                out := put(out, table, byte(0, w))
                out := put(out, table, byte(1, w))
                out := put(out, table, byte(2, w))
                out := put(out, table, byte(3, w))
                p := add(p, 4)
            }
            for {} lt(p, end) { p := add(p, 1) } {
                out := put(out, table, byte(0, calldataload(p)))
            }
            mstore(folded, sub(out, add(folded, 0x20)))
            // Zero the tail of the last word so the buffer is clean ABI/event data, then claim the memory.
            mstore(out, 0)
            mstore(0x40, and(add(out, 0x1f), not(0x1f)))
        }
    }
}
