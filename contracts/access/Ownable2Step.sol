// SPDX-License-Identifier: UNLICENSED
pragma solidity 0.8.30;

/// @notice Two-step ownership: the owner proposes, the new owner accepts. A mistyped address can never
/// take (or lose) control, because it cannot accept.
abstract contract Ownable2Step {
    address private _owner;
    address private _pendingOwner;

    event OwnershipTransferStarted(address indexed previousOwner, address indexed newOwner);
    event OwnershipTransferred(address indexed previousOwner, address indexed newOwner);

    /// The caller is not the owner.
    error NotOwner(address caller);
    /// The caller is not the proposed owner.
    error NotPendingOwner(address caller);
    /// The initial owner must not be the zero address.
    error ZeroOwner();

    modifier onlyOwner() {
        if (msg.sender != _owner) revert NotOwner(msg.sender);
        _;
    }

    constructor(address initialOwner) {
        if (initialOwner == address(0)) revert ZeroOwner();
        _transferOwnership(initialOwner);
    }

    function owner() public view returns (address) {
        return _owner;
    }

    function pendingOwner() public view returns (address) {
        return _pendingOwner;
    }

    /// @notice Proposes `newOwner`; ownership moves only when it calls acceptOwnership. Proposing the zero
    /// address cancels a pending proposal.
    function transferOwnership(address newOwner) external onlyOwner {
        _pendingOwner = newOwner;
        emit OwnershipTransferStarted(_owner, newOwner);
    }

    function acceptOwnership() external {
        if (msg.sender != _pendingOwner) revert NotPendingOwner(msg.sender);
        _transferOwnership(msg.sender);
    }

    function _transferOwnership(address newOwner) private {
        address previous = _owner;
        _owner = newOwner;
        delete _pendingOwner;
        emit OwnershipTransferred(previous, newOwner);
    }
}
