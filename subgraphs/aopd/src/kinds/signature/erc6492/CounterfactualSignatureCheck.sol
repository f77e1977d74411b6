// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

interface IERC1271 {
    function isValidSignature(bytes32 hash, bytes calldata signature) external view returns (bytes4);
}

/// ERC-6492's off-chain validation (https://eips.ethereum.org/EIPS/eip-6492): run as the init code
/// of an `eth_call` with no `to`, so nothing is ever deployed. A wrapped signature is
/// abi.encode(factory, factoryCalldata, innerSignature) followed by the 32 magic bytes 0x6492...6492;
/// when the signer has no code yet, the factory call deploys it inside the call, and then the
/// account's ERC-1271 isValidSignature decides. Returns one byte: 0x01 valid, 0x00 not.
/// Written for aopd from the EIP's specification; unwrapped signatures are aopd's ecrecover and
/// ERC-1271 paths' business, so this only ever answers for wrapped ones.
contract CounterfactualSignatureCheck {
    constructor(address signer, bytes32 hash, bytes memory signature) {
        bool valid = false;
        uint256 length = signature.length;
        bytes32 suffix;
        if (length >= 32) {
            assembly {
                suffix := mload(add(signature, length))
            }
        }
        if (suffix == 0x6492649264926492649264926492649264926492649264926492649264926492) {
            assembly {
                mstore(signature, sub(length, 32))
            }
            (address factory, bytes memory factoryCalldata, bytes memory inner) = abi.decode(signature, (address, bytes, bytes));
            if (signer.code.length == 0) {
                (bool deployed, ) = factory.call(factoryCalldata);
                deployed;
            }
            if (signer.code.length > 0) {
                try IERC1271(signer).isValidSignature(hash, inner) returns (bytes4 magic) {
                    valid = magic == 0x1626ba7e;
                } catch {}
            }
        }
        assembly {
            mstore(0, valid)
            return(31, 1)
        }
    }
}
