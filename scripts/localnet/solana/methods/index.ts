import { accountMethods } from "./accounts";
import { adminMethods } from "./admin";
import { clusterMethods } from "./cluster";
import type { MethodTable } from "./context";
import { transactionMethods } from "./transactions";

export const rpcMethods: MethodTable = {
  ...accountMethods,
  ...clusterMethods,
  ...transactionMethods,
  ...adminMethods,
};

export const ADMIN_METHOD_PREFIX = "localnet_";
