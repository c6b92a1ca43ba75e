// Account reads: getAccountInfo, getBalance, getMultipleAccounts, getProgramAccounts, rent.
import { accountFiltersOf, byteView, dataSliceOf, encodeAccount, encodingOf } from "../accountEncoding";
import { asAddress } from "../chain";
import { addressParam, commitmentOf, configParam } from "../params";
import { invalidParams } from "../rpcError";
import { contextSlot, type MethodTable, withContext } from "./context";

const MAX_MULTIPLE_ACCOUNTS = 100;

export const accountMethods: MethodTable = {
  getAccountInfo(params, chain) {
    const address = addressParam(params, 0);
    const config = configParam(params, 1);
    const slot = contextSlot(chain, commitmentOf(config), config);
    const account = chain.account(address);
    return withContext(slot, account && encodeAccount(account, encodingOf(config), dataSliceOf(config)));
  },

  getBalance(params, chain) {
    const address = addressParam(params, 0);
    const config = configParam(params, 1);
    return withContext(contextSlot(chain, commitmentOf(config), config), Number(chain.balance(address)));
  },

  getMultipleAccounts(params, chain) {
    const addresses = params[0];
    if (!Array.isArray(addresses)) throw invalidParams("Invalid params: expected an array of addresses");
    if (addresses.length > MAX_MULTIPLE_ACCOUNTS) {
      throw invalidParams(`Too many inputs provided; max ${MAX_MULTIPLE_ACCOUNTS}`);
    }
    const config = configParam(params, 1);
    const slot = contextSlot(chain, commitmentOf(config), config);
    const encoding = encodingOf(config);
    const slice = dataSliceOf(config);
    return withContext(
      slot,
      addresses.map((_, index) => {
        const account = chain.account(addressParam(addresses, index));
        return account && encodeAccount(account, encoding, slice);
      }),
    );
  },

  getProgramAccounts(params, chain) {
    const program = addressParam(params, 0);
    const config = configParam(params, 1);
    const slot = contextSlot(chain, commitmentOf(config), config);
    const filters = accountFiltersOf(config);
    const encoding = encodingOf(config);
    const slice = dataSliceOf(config);
    const accounts = chain.svm
      .getProgramAccounts(asAddress(program))
      .filter((account) => account.lamports > 0n && filters.every((filter) => filter(byteView(account.data))))
      .map((account) => ({
        pubkey: account.address as string,
        account: encodeAccount(
          {
            lamports: account.lamports,
            data: byteView(account.data),
            owner: account.programAddress,
            executable: account.executable,
          },
          encoding,
          slice,
        ),
      }));
    return config.withContext === true ? withContext(slot, accounts) : accounts;
  },

  getMinimumBalanceForRentExemption(params, chain) {
    const length = params[0];
    if (typeof length !== "number" || !Number.isInteger(length) || length < 0) {
      throw invalidParams("Invalid params: expected the account data length as a non-negative integer");
    }
    return Number(chain.svm.minimumBalanceForRentExemption(BigInt(length)));
  },
};
