// Transaction methods: send, simulate, statuses, history by address, getTransaction, airdrop.
import { encodeAccount, encodingOf } from "../accountEncoding";
import type { SolanaChain } from "../chain";
import type { TransactionRecord } from "../ledger";
import {
  addressParam,
  commitmentOf,
  configParam,
  optionalNumber,
  optionalString,
  stringParam,
} from "../params";
import { invalidParams } from "../rpcError";
import { transactionEncodingOf, transactionWithMeta } from "../transactionJson";
import { decodeWire } from "../wireTransaction";
import { contextSlot, type MethodTable, withContext } from "./context";

const MAX_SIGNATURE_STATUSES = 256;
const MAX_SIGNATURES_FOR_ADDRESS = 1000;
/** Blocks a validator's status cache covers (MAX_RECENT_BLOCKHASHES). */
const STATUS_CACHE_BLOCKS = 300;

function blockTimeOf(chain: SolanaChain, record: TransactionRecord): number | null {
  return chain.faults.nullBlockTime ? null : (chain.ledger.block(record.slot)?.blockTime ?? null);
}

function wireParam(params: Parameters<MethodTable[string]>[0], config: Record<string, unknown>): Uint8Array {
  // Validators default to base58 here; web3.js always sends base64.
  return decodeWire(
    stringParam(params, 0, "an encoded transaction"),
    optionalString(config, "encoding") ?? "base58",
  );
}

export const transactionMethods: MethodTable = {
  sendTransaction(params, chain) {
    const config = configParam(params, 1);
    contextSlot(chain, "processed", config);
    return chain.send(wireParam(params, config), { skipPreflight: config.skipPreflight === true });
  },

  simulateTransaction(params, chain) {
    const config = configParam(params, 1);
    const sigVerify = config.sigVerify === true;
    const replaceRecentBlockhash = config.replaceRecentBlockhash === true;
    if (sigVerify && replaceRecentBlockhash) {
      throw invalidParams("sigVerify may not be used with replaceRecentBlockhash");
    }
    const slot = contextSlot(chain, commitmentOf(config), config);
    const decoded = chain.decode(wireParam(params, config));
    const result = chain.simulate(decoded, { sigVerify, replaceRecentBlockhash });
    const requested = config.accounts as { addresses?: unknown; encoding?: string } | undefined;
    let accounts: unknown = null;
    if (requested && Array.isArray(requested.addresses)) {
      const encoding = encodingOf({ encoding: requested.encoding });
      accounts = requested.addresses.map((address) => {
        // Accounts the transaction does not touch are shown as they are now, as a validator does.
        const post = result.postAccounts.get(String(address)) ?? chain.account(String(address));
        return post ? encodeAccount(post, encoding) : null;
      });
    }
    const head = chain.ledger.head;
    return withContext(slot, {
      err: result.err,
      logs: result.logs,
      accounts,
      unitsConsumed: result.unitsConsumed,
      returnData: result.returnData,
      innerInstructions: config.innerInstructions === true ? result.innerInstructions : null,
      ...(replaceRecentBlockhash
        ? {
            replacementBlockhash: { blockhash: head.blockhash, lastValidBlockHeight: head.blockHeight + 150 },
          }
        : {}),
    });
  },

  getSignatureStatuses(params, chain) {
    const signatures = params[0];
    if (!Array.isArray(signatures)) throw invalidParams("Invalid params: expected an array of signatures");
    if (signatures.length > MAX_SIGNATURE_STATUSES) {
      throw invalidParams(`Too many inputs provided; max ${MAX_SIGNATURE_STATUSES}`);
    }
    const searchHistory = configParam(params, 1).searchTransactionHistory === true;
    const ledger = chain.ledger;
    return withContext(
      ledger.head.slot,
      signatures.map((signature) => {
        const record = ledger.transaction(String(signature));
        if (!record) return null;
        // Without searchTransactionHistory a validator only consults its recent status cache.
        if (!searchHistory && ledger.blocksSince(record.slot) > STATUS_CACHE_BLOCKS) return null;
        return {
          slot: record.slot,
          confirmations: ledger.confirmationsOf(record.slot),
          err: record.err,
          status: record.err === null ? { Ok: null } : { Err: record.err },
          confirmationStatus: ledger.commitmentOf(record.slot),
        };
      }),
    );
  },

  getSignaturesForAddress(params, chain) {
    const address = addressParam(params, 0);
    const config = configParam(params, 1);
    const commitment = commitmentOf(config, "confirmed");
    contextSlot(chain, commitment, config);
    const limit = optionalNumber(config, "limit") ?? MAX_SIGNATURES_FOR_ADDRESS;
    if (limit < 1 || limit > MAX_SIGNATURES_FOR_ADDRESS) {
      throw invalidParams(`Invalid limit; max ${MAX_SIGNATURES_FOR_ADDRESS}`);
    }
    const records = chain.ledger.signaturesFor(address, {
      before: optionalString(config, "before"),
      until: optionalString(config, "until"),
      limit,
      commitment,
    });
    return records.map((record) => ({
      signature: record.signature,
      slot: record.slot,
      err: record.err,
      memo: null,
      blockTime: blockTimeOf(chain, record),
      confirmationStatus: chain.ledger.commitmentOf(record.slot),
    }));
  },

  getTransaction(params, chain) {
    const signature = stringParam(params, 0, "a transaction signature");
    const config = typeof params[1] === "string" ? { encoding: params[1] } : configParam(params, 1);
    const commitment = commitmentOf(config, "confirmed");
    const record = chain.ledger.transaction(signature);
    if (!record || record.slot > chain.ledger.blockAt(commitment).slot) return null;
    return {
      slot: record.slot,
      blockTime: blockTimeOf(chain, record),
      ...transactionWithMeta(
        record,
        transactionEncodingOf(config.encoding),
        config.maxSupportedTransactionVersion,
      ),
    };
  },

  requestAirdrop(params, chain) {
    const address = addressParam(params, 0);
    const lamports = params[1];
    if (typeof lamports !== "number" || !Number.isSafeInteger(lamports)) {
      throw invalidParams("Invalid params: expected the lamports to airdrop as an integer");
    }
    return chain.airdrop(address, BigInt(lamports));
  },
};
