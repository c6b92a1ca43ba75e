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

    /// Per-byte masks over a 32-byte word.
    uint256 private constant BYTES_20 = 0x2020202020202020202020202020202020202020202020202020202020202020;
    uint256 private constant BYTES_7F = 0x7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f;
    uint256 private constant BYTES_80 = 0x8080808080808080808080808080808080808080808080808080808080808080;
    uint256 private constant BYTES_DF = 0xdfdfdfdfdfdfdfdfdfdfdfdfdfdfdfdfdfdfdfdfdfdfdfdfdfdfdfdfdfdfdfdf;
    /// Added to a byte below 0x80, these set its high bit from 0x61 ('a') on, and from 0x7b on.
    uint256 private constant BYTES_ADD_TO_61 = 0x1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f;
    uint256 private constant BYTES_ADD_TO_7B = 0x0505050505050505050505050505050505050505050505050505050505050505;
    uint256 private constant BYTES_01 = 0x0101010101010101010101010101010101010101010101010101010101010101;
    /// Byte k (from the most significant) is 31 - k: shifted left by k bytes, its first byte names byte 31 - k.
    uint256 private constant BYTE_INDEX = 0x1f1e1d1c1b1a191817161514131211100f0e0d0c0b0a09080706050403020100;
    /// On the stack, a byte that is not a letter costs about STACK_COST_RATIO bytes of the table's loop, which
    /// first pays for writing the table: the stack is used while count * RATIO <= length + SLACK.
    uint256 private constant STACK_COST_RATIO = 4;
    uint256 private constant STACK_COST_SLACK = 12;

    /// @notice Folds `input`; the result may be empty or longer than any bound (callers check bounds).
    function fold(bytes calldata input) internal pure returns (bytes memory folded) {
        uint256 table;
        uint256 start;
        assembly ("memory-safe") {
            table := mload(0x40)
            folded := add(table, 0x100)
            start := add(folded, 0x20)
        }
        _writeTable(table);
        uint256 end = _foldInto(input, table, start);
        assembly ("memory-safe") {
            mstore(folded, sub(end, add(folded, 0x20)))
            // Zero the tail of the last word so the buffer is clean ABI/event data, then claim the memory.
            mstore(end, 0)
            mstore(0x40, and(add(end, 0x1f), not(0x1f)))
        }
    }

    /// @notice keccak256 of the folded `input` and the folded length, without keeping the folded bytes.
    /// @dev Input of at most one word with few bytes that are not letters (most names and tickers) is folded on
    /// the stack: its letters all at once, then each other byte kept or dropped. Other input goes through the
    /// table's loop, in memory nobody claims: once the table is written, each byte costs less there.
    function foldedHash(bytes calldata input) internal pure returns (bytes32 hash, uint256 length) {
        length = input.length;
        uint256 word;
        uint256 others;
        uint256 out;
        bool throughTable;
        assembly ("memory-safe") {
            word := calldataload(input.offset)
            let past := shr(shl(3, length), not(0))
            // Lower-cased, a letter is 0x61-0x7a; the high bit marks a byte of 0x80 or above. `others` has the
            // high bit of each of the input's bytes that is not a letter (calldata past its end belongs to other
            // arguments).
            let lower := or(word, BYTES_20)
            let low := and(lower, BYTES_7F)
            others :=
                and(
                    and(or(or(not(add(low, BYTES_ADD_TO_61)), add(low, BYTES_ADD_TO_7B)), lower), BYTES_80), not(past)
                )
            // The letters' capitals, zero elsewhere.
            out := and(and(word, BYTES_DF), not(or(past, mul(shr(7, others), 0xff))))
            // Their number, summed into the first byte.
            let count := byte(0, mul(shr(7, others), BYTES_01))
            throughTable := or(gt(length, 32), gt(mul(count, STACK_COST_RATIO), add(length, STACK_COST_SLACK)))
        }
        if (throughTable) return _foldedHashThroughTable(input);
        assembly ("memory-safe") {
            // The table's entries for 0x21-0x40, where every kept byte that is not a letter lies.
            let table2140 := or(shl(8, TABLE_20_3F), shr(248, TABLE_40_5F))
            // Right to left, so that dropping a byte moves only bytes already folded.
            for {} others {} {
                let bit := and(others, sub(0, others))
                others := xor(others, bit)
                let i := byte(0, mul(shr(7, bit), BYTE_INDEX))
                let c := byte(sub(byte(i, word), 0x21), table2140)
                switch c
                case 0 {
                    let from := shr(shl(3, i), not(0))
                    out := or(and(out, not(from)), and(shl(8, out), from))
                    length := sub(length, 1)
                }
                default { out := or(out, shl(shl(3, sub(31, i)), c)) }
            }
            mstore(0, out)
            hash := keccak256(0, length)
        }
    }

    function _foldedHashThroughTable(bytes calldata input) private pure returns (bytes32 hash, uint256 length) {
        uint256 table;
        assembly ("memory-safe") {
            table := mload(0x40)
        }
        _writeTable(table);
        uint256 start = table + 0x100;
        uint256 end = _foldInto(input, table, start);
        assembly ("memory-safe") {
            length := sub(end, start)
            hash := keccak256(start, length)
        }
    }

    /// The 256-byte lookup table at `table`: 0x00-0x1f and 0x80-0xff all map to zero, so that the per-byte loop
    /// needs no branch.
    function _writeTable(uint256 table) private pure {
        assembly ("memory-safe") {
            mstore(table, 0)
            mstore(add(table, 0x20), TABLE_20_3F)
            mstore(add(table, 0x40), TABLE_40_5F)
            mstore(add(table, 0x60), TABLE_60_7F)
            mstore(add(table, 0x80), 0)
            mstore(add(table, 0xa0), 0)
            mstore(add(table, 0xc0), 0)
            mstore(add(table, 0xe0), 0)
        }
    }

    /// Folds `input` through the table at `table` into memory from `out` on, which must not overlap the table;
    /// returns the end of the folded bytes.
    function _foldInto(bytes calldata input, uint256 table, uint256 out) private pure returns (uint256) {
        assembly ("memory-safe") {
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
        }
        return out;
    }
}
