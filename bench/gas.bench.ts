// Gas of the EVM IdentityRegistry on Hardhat's in-process network: `npm run bench -- gas`.
// A new reservation is two transactions, commit then reveal (`reserve`); both are measured, and checked against
// the budgets below (a figure over its budget is reported on stderr and makes the run exit non-zero).
import {
  type Abi,
  type Address,
  encodeFunctionData,
  getAddress,
  type Hash,
  type Hex,
  keccak256,
  toHex,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { DEFAULT_LOCAL_PRICE_USD, usdToFeedAnswer } from "../chains/evm/settings";
import { identityRegistryAbi } from "../contracts/abi/identityRegistry";
import { localPriceFeedAbi } from "../contracts/abi/localPriceFeed";
import { guardedLaunchpadAbi } from "../contracts/test/abi/guardedLaunchpad";
import { identityGuardGasProbeAbi } from "../contracts/test/abi/identityGuardGasProbe";
import { unguardedLaunchpadAbi } from "../contracts/test/abi/unguardedLaunchpad";
import { launchDecisionTypedData } from "../core/decision/onchain";
import { readArtifact } from "../scripts/evm/artifacts";
import { deployWithClients } from "../scripts/evm/deploy";
import { type InProcessNetwork, startInProcessNetwork } from "../scripts/evm/hardhat-network";
import type { Emit } from "./run";

const ONE_DAY = 86_400;
const PARTNER_REF = keccak256(toHex("bench-partner"));
const SECRET = keccak256(toHex("bench-secret"));

/**
 * Upper bounds in gas. The launch check is measured inside a calling contract (LaunchCheckGasProbe): the caller's
 * argument encoding, the CALL's account access, the registry's execution and the caller's decoding of the answer.
 * `launch_allowed_10_10` has the registry's account warm, `_cold` is the transaction's first touch of the
 * registry (EIP-2929's cold account surcharge on the CALL, which the caller pays for any first call to any
 * contract); `_mixed` spells the pair with digits and a space, `_symbols` mostly with digits and symbols. `guard_verify_decision_10_10` has the registry
 * warm, `_cold` is the registry's first touch.
 */
export const GAS_BUDGETS: Readonly<Record<string, number>> = {
  commit: 50_000,
  reveal_4_4: 95_000,
  launch_allowed_10_10: 8_000,
  launch_allowed_10_10_cold: 8_000,
  launch_allowed_10_10_mixed: 8_000,
  launch_allowed_10_10_symbols: 8_000,
  guard_verify_decision_10_10: 15_000,
};

const probeAbi = [
  {
    type: "function",
    name: "measureLaunchAllowed",
    inputs: [
      { name: "registry", type: "address" },
      { name: "name", type: "string" },
      { name: "ticker", type: "string" },
      { name: "launcher", type: "address" },
      { name: "warm", type: "bool" },
    ],
    outputs: [
      { name: "gasUsed", type: "uint256" },
      { name: "allowed", type: "bool" },
    ],
    stateMutability: "view",
  },
  {
    type: "function",
    name: "measureRequireLaunchAllowed",
    inputs: [
      { name: "registry", type: "address" },
      { name: "name", type: "string" },
      { name: "ticker", type: "string" },
      { name: "launcher", type: "address" },
      { name: "warm", type: "bool" },
    ],
    outputs: [{ name: "gasUsed", type: "uint256" }],
    stateMutability: "view",
  },
] as const;

const sequencerFeedAbi = [
  {
    type: "function",
    name: "setStatus",
    inputs: [
      { name: "status", type: "int256" },
      { name: "startedAt", type: "uint256" },
    ],
    outputs: [],
    stateMutability: "nonpayable",
  },
] as const;

export async function run(emit: Emit): Promise<void> {
  const network = await startInProcessNetwork();
  const { hre, publicClient, wallets } = network;
  const [deployer, ...launchers] = wallets;
  if (!deployer || launchers.length < 8) throw new Error("The bench needs 9 funded Hardhat accounts.");
  const gasOf = async (hash: Hash): Promise<bigint> =>
    (await publicClient.waitForTransactionReceipt({ hash })).gasUsed;
  const overBudget: string[] = [];
  const report = (metric: string, gas: bigint | number, note = ""): void => {
    emit(metric, Number(gas), "gas");
    const budget = GAS_BUDGETS[metric];
    if (budget !== undefined && Number(gas) > budget) overBudget.push(`${metric} ${gas} > ${budget}`);
    const against = budget === undefined ? "" : ` (budget ${budget})`;
    console.error(`${metric}: ${gas}${against}${note}`);
  };

  // Automine puts each transaction in its own block: the feed, then the registry.
  const deployBlock = await publicClient.getBlockNumber();
  const deployment = await deployWithClients({ publicClient, walletClient: deployer });
  const deployReceipts = await Promise.all(
    [deployBlock + 1n, deployBlock + 2n].map((blockNumber) =>
      publicClient.getBlock({ blockNumber, includeTransactions: true }),
    ),
  );
  const [feedGas, registryGas] = await Promise.all(
    deployReceipts.map(async (block) => gasOf(block.transactions[0]?.hash as Hash)),
  );
  report("deploy_price_feed", feedGas ?? 0n);
  report("deploy_registry", registryGas ?? 0n);

  const flows = reservationFlows(network, deployment.registry);
  const fee = await flows.quote();

  // Warm the contract with one reservation so figures are those of a registry in use.
  await flows.commitAndReveal(7, "Warmup", "WARM", fee);
  // Lengths are those of the folded strings, which decide storage-free work and event size.
  const cases: [string, number, string, string][] = [
    ["4_4", 0, "Moon", "MOON"],
    ["13_5", 1, "Dogwifhatmoon", "WIFHM"],
    ["64_10", 2, "A".repeat(64), "TICKERABCD"],
  ];
  for (const [lengths, launcher, name, ticker] of cases) {
    const { commitGas, revealGas } = await flows.commitAndReveal(launcher, name, ticker, fee);
    if (lengths === "4_4") report("commit", commitGas, " (a fresh commitment slot)");
    report(`reveal_${lengths}`, revealGas, " (fresh wallet, fresh pair, exact payment)");
  }
  report("reveal_4_4_second_of_wallet", (await flows.commitAndReveal(0, "Mars", "MARS", fee)).revealGas);
  report("reveal_4_4_refund_excess", (await flows.commitAndReveal(3, "Luna", "LUNA", fee * 2n)).revealGas);

  // Time travel leaves the feed behind: publish a fresh answer after each jump.
  const travel = async (seconds: number): Promise<void> => {
    await hre.network.provider.send("evm_increaseTime", [seconds]);
    await gasOf(
      await deployer.writeContract({
        address: deployment.priceFeed,
        abi: localPriceFeedAbi,
        functionName: "setAnswer",
        args: [usdToFeedAnswer(DEFAULT_LOCAL_PRICE_USD)],
      }),
    );
  };

  // Renewal opens 12 hours before expiry.
  await travel(ONE_DAY - 6 * 3600);
  const [nameHash, tickerHash] = await publicClient.readContract({
    address: deployment.registry,
    abi: identityRegistryAbi,
    functionName: "identityHashes",
    args: ["Moon", "MOON"],
  });
  const renewHash = await (launchers[0] ?? deployer).writeContract({
    address: deployment.registry,
    abi: identityRegistryAbi,
    functionName: "renew",
    args: [nameHash, tickerHash, ONE_DAY, PARTNER_REF],
    value: fee,
  });
  report("renew", await gasOf(renewHash));

  // After expiry another wallet takes the expired pair over (record slot already non-zero).
  await travel(2 * ONE_DAY);
  report(
    "reveal_reuse_expired_pair",
    (await flows.commitAndReveal(4, "Dogwifhatmoon", "WIFHM", await flows.quote())).revealGas,
  );

  // The launch check as a launchpad contract pays for it: gasleft() around the external call (argument
  // encoding, account access, dispatch, fold of both strings, one cold pair slot, decoding). With the registry's
  // account warm, and as the transaction's first touch of the registry (*_cold). The registry's own execution
  // (*_registry_frame: from its first instruction to its RETURN, as a trace of the same call shows) is what the
  // registry's code decides; the rest is the caller's.
  const probe = await deploy(network, probeAbi, readArtifact("LaunchCheckGasProbe").bytecode);
  const tenTen = ["Moonrocket", "ROCKETMOON"] as const;
  const mixed = ["Moon Rock3", "R0CK3TM00N"] as const;
  // Six or more bytes in each string that are not letters: the fold's table loop, the most for 10 bytes.
  const symbols = ["$1000 Moon", "$1000X-2.0"] as const;
  await flows.commitAndReveal(5, ...tenTen, await flows.quote());
  const outsider = getAddress((launchers[6] ?? deployer).account.address);
  const holder = getAddress((launchers[5] ?? deployer).account.address);
  const launchAllowedGas = async (name: string, ticker: string, launcher: Address, warm: boolean) => {
    const [gas, allowed] = await publicClient.readContract({
      address: probe,
      abi: probeAbi,
      functionName: "measureLaunchAllowed",
      args: [deployment.registry, name, ticker, launcher, warm],
    });
    return { gas, allowed };
  };
  for (const warm of [true, false]) {
    const suffix = warm ? "" : "_cold";
    const refused = await launchAllowedGas(...tenTen, outsider, warm);
    if (refused.allowed) throw new Error("launchAllowed should refuse an outsider on a held pair");
    report(`launch_allowed_10_10${suffix}`, refused.gas, " (held pair, refused)");
    report(
      `launch_allowed_10_10_free${suffix}`,
      (await launchAllowedGas("Sunrockets", "SUNROCKETS", outsider, warm)).gas,
    );
    report(
      `launch_allowed_10_10_mixed${suffix}`,
      (await launchAllowedGas(...mixed, outsider, warm)).gas,
      ` (free pair "${mixed.join('" / "')}": digits and a space)`,
    );
    report(
      `launch_allowed_10_10_symbols${suffix}`,
      (await launchAllowedGas(...symbols, outsider, warm)).gas,
      ` (free pair "${symbols.join('" / "')}": mostly digits and symbols)`,
    );
    const requireGas = await publicClient.readContract({
      address: probe,
      abi: probeAbi,
      functionName: "measureRequireLaunchAllowed",
      args: [deployment.registry, ...tenTen, holder, warm],
    });
    report(`require_launch_allowed_10_10${suffix}`, requireGas, " (held by the launcher, allowed)");
  }
  const frame = (name: string, ticker: string) =>
    registryFrameGas(network, deployment.registry, {
      abi: identityRegistryAbi,
      functionName: "launchAllowed",
      args: [name, ticker, outsider],
    });
  report("launch_allowed_10_10_registry_frame", await frame(...tenTen), " (the registry's own execution)");
  report(
    "launch_allowed_10_10_mixed_registry_frame",
    await frame(...mixed),
    " (the registry's own execution)",
  );
  report(
    "launch_allowed_10_10_symbols_registry_frame",
    await frame(...symbols),
    " (the registry's own execution)",
  );

  await guardGas(network, deployment.registry, report);

  // An L2 registry with a sequencer uptime feed (the test-only feed: its storage reads differ from
  // Chainlink's real one, so this figure is indicative).
  const sequencer = await deploy(
    network,
    sequencerFeedAbi,
    readArtifact("LocalSequencerUptimeFeed").bytecode,
  );
  const now = (await publicClient.getBlock()).timestamp;
  await gasOf(
    await deployer.writeContract({
      address: sequencer,
      abi: sequencerFeedAbi,
      functionName: "setStatus",
      args: [0n, now - BigInt(ONE_DAY)],
    }),
  );
  const l2 = await deployWithClients(
    { publicClient, walletClient: deployer },
    { priceFeed: deployment.priceFeed, sequencerUptimeFeed: sequencer },
  );
  const l2Flows = reservationFlows(network, l2.registry);
  await l2Flows.commitAndReveal(7, "Warmup", "WARM", fee);
  report(
    "reveal_4_4_with_sequencer_check",
    (await l2Flows.commitAndReveal(8, "Moon", "MOON", fee)).revealGas,
  );

  if (overBudget.length > 0) {
    console.error(`Over budget: ${overBudget.join("; ")}`);
    process.exitCode = 1;
  }
}

/** Commit, then reveal one block later (the local registry's minCommitmentAge is one second). */
function reservationFlows({ publicClient, wallets }: InProcessNetwork, registry: Address) {
  const [deployer, ...launchers] = wallets;
  if (!deployer) throw new Error("No Hardhat accounts");
  const gasOf = async (hash: Hash): Promise<bigint> =>
    (await publicClient.waitForTransactionReceipt({ hash })).gasUsed;
  const contract = { address: registry, abi: identityRegistryAbi } as const;
  return {
    quote: () => publicClient.readContract({ ...contract, functionName: "quote", args: [ONE_DAY] }),
    async commitAndReveal(launcherIndex: number, name: string, ticker: string, value: bigint) {
      const wallet = launchers[launcherIndex] ?? deployer;
      const commitment: Hex = await publicClient.readContract({
        ...contract,
        functionName: "makeCommitment",
        args: [name, ticker, wallet.account.address, ONE_DAY, PARTNER_REF, SECRET],
      });
      const commitGas = await gasOf(
        await wallet.writeContract({ ...contract, functionName: "commit", args: [commitment] }),
      );
      const revealGas = await gasOf(
        await wallet.writeContract({
          ...contract,
          functionName: "reserve",
          args: [name, ticker, ONE_DAY, PARTNER_REF, SECRET],
          value,
        }),
      );
      return { commitGas, revealGas };
    },
  };
}

/**
 * Gas the registry's own frame uses for one call from an account: every step of the call's trace, which starts at
 * the registry's first instruction and ends with its RETURN (free), so no caller and no transaction cost is in it.
 */
async function registryFrameGas(
  { hre }: InProcessNetwork,
  registry: Address,
  call: Parameters<typeof encodeFunctionData>[0],
): Promise<number> {
  const trace = (await hre.network.provider.send("debug_traceCall", [
    { to: registry, data: encodeFunctionData(call) },
    "latest",
    { disableStorage: true, disableMemory: true, disableStack: true },
  ])) as { failed: boolean; structLogs: { gas: number; gasCost: number; depth: number }[] };
  const steps = trace.structLogs;
  const [first, last] = [steps[0], steps.at(-1)];
  if (trace.failed || !first || !last || steps.some((step) => step.depth !== 1)) {
    throw new Error("The traced call failed or left the registry");
  }
  return first.gas - last.gas + last.gasCost;
}

async function deploy(
  { publicClient, wallets }: InProcessNetwork,
  abi: readonly unknown[],
  bytecode: Hex,
): Promise<Address> {
  const [deployer] = wallets;
  if (!deployer) throw new Error("No Hardhat accounts");
  const hash = await deployer.deployContract({ abi, bytecode });
  const receipt = await publicClient.waitForTransactionReceipt({ hash });
  if (!receipt.contractAddress) throw new Error("Deployment failed");
  return getAddress(receipt.contractAddress);
}

/** The EIP-712 type the service's EVM decision key signs for the identity guard. */

/**
 * The identity guard (contracts/guard/IdentityGuard.sol) on the example launchpad, 10-character name and ticker
 * held by the launcher. Transaction level: the same launch (same token, same event) through GuardedLaunchpad's
 * signed and registry-only paths and through UnguardedLaunchpad, which has no guard; the differences are the
 * guard's overhead, calldata included. In isolation (IdentityGuardGasProbe, gasleft() around internal calls):
 * the registry view (identityHashes, the one fold, then reservationOf), the signer set (isDecisionSigner), the
 * signature (strict ecrecover), all checks of the signed path together (budgeted, registry warm like the other
 * launch-check budget), and the whole `_consumeDecision`, which adds the single-use mark (a fresh slot) and
 * LaunchDecisionConsumed.
 */
async function guardGas(
  network: InProcessNetwork,
  registry: Address,
  report: (metric: string, gas: bigint | number, note?: string) => void,
): Promise<void> {
  const { publicClient, wallets } = network;
  const [deployer, ...launchers] = wallets;
  const holderWallet = launchers[5];
  if (!deployer || !holderWallet) throw new Error("No Hardhat accounts");
  const holder = getAddress(holderWallet.account.address);
  const gasOf = async (hash: Hash): Promise<bigint> =>
    (await publicClient.waitForTransactionReceipt({ hash })).gasUsed;
  const deployWith = async (
    abi: Abi,
    bytecode: Hex,
    args: readonly unknown[],
    metric?: string,
  ): Promise<Address> => {
    const receipt = await publicClient.waitForTransactionReceipt({
      hash: await deployer.deployContract({ abi, bytecode, args }),
    });
    if (!receipt.contractAddress) throw new Error("Deployment failed");
    if (metric !== undefined) report(metric, receipt.gasUsed);
    return getAddress(receipt.contractAddress);
  };

  const decisionKey = privateKeyToAccount(keccak256(toHex("bench-decision-key")));
  const now = (await publicClient.getBlock()).timestamp;
  await gasOf(
    await deployer.writeContract({
      address: registry,
      abi: identityRegistryAbi,
      functionName: "setDecisionSigner",
      args: [decisionKey.address, now - 3_600n, now + 365n * BigInt(ONE_DAY)],
    }),
  );
  const launchpad = await deployWith(
    guardedLaunchpadAbi,
    readArtifact("GuardedLaunchpad").bytecode,
    [registry],
    "deploy_guarded_launchpad",
  );
  const unguarded = await deployWith(unguardedLaunchpadAbi, readArtifact("UnguardedLaunchpad").bytecode, []);
  const probe = await deployWith(identityGuardGasProbeAbi, readArtifact("IdentityGuardGasProbe").bytecode, [
    registry,
  ]);

  // "Moonrocket::ROCKETMOON" is held by `holder` (reserved in the launch-check section above).
  const [name, ticker] = ["Moonrocket", "ROCKETMOON"] as const;
  const [nameHash, tickerHash] = await publicClient.readContract({
    address: registry,
    abi: identityRegistryAbi,
    functionName: "identityHashes",
    args: [name, ticker],
  });
  const expiresAt = now + 3_600n;
  const sign = (verifyingContract: Address, token: Address, nonce: Hex) =>
    decisionKey.signTypedData(
      launchDecisionTypedData({
        chainId: publicClient.chain.id,
        factory: verifyingContract,
        nameHash,
        tickerHash,
        launcher: holder,
        token,
        decision: "allow",
        expiresAt,
        nonce,
      }),
    );

  // Transaction level. Each launch deploys an identical token (only the salt differs).
  const unguardedGas = await gasOf(
    await holderWallet.writeContract({
      address: unguarded,
      abi: unguardedLaunchpadAbi,
      functionName: "launch",
      args: [name, ticker, keccak256(toHex("salt:unguarded"))],
    }),
  );
  report("launch_unguarded_10_10", unguardedGas, " (the same token and event, no guard)");
  const signedSalt = keccak256(toHex("salt:signed"));
  const signedToken = await publicClient.readContract({
    address: launchpad,
    abi: guardedLaunchpadAbi,
    functionName: "predictToken",
    args: [name, ticker, holder, signedSalt],
  });
  const signedNonce = keccak256(toHex("nonce:signed"));
  const signedGas = await gasOf(
    await holderWallet.writeContract({
      address: launchpad,
      abi: guardedLaunchpadAbi,
      functionName: "launch",
      args: [
        name,
        ticker,
        signedSalt,
        expiresAt,
        signedNonce,
        await sign(launchpad, signedToken, signedNonce),
      ],
    }),
  );
  report("launch_signed_10_10", signedGas);
  report(
    "guard_signed_tx_overhead_10_10",
    signedGas - unguardedGas,
    " (signed launch minus unguarded: calldata, registry view cold, signature, signer set, single-use mark, event)",
  );
  const registryOnlyGas = await gasOf(
    await holderWallet.writeContract({
      address: launchpad,
      abi: guardedLaunchpadAbi,
      functionName: "launchRegistryOnly",
      args: [name, ticker, keccak256(toHex("salt:registry-only"))],
    }),
  );
  report("launch_registry_only_10_10", registryOnlyGas);
  report(
    "guard_registry_only_tx_overhead_10_10",
    registryOnlyGas - unguardedGas,
    " (registry-only launch minus unguarded: the registry view, cold)",
  );

  // In isolation, through the probe (eth_call; nothing is consumed).
  const probeToken = getAddress(`0x${"70".repeat(20)}`);
  const probeNonce = keccak256(toHex("nonce:probe"));
  const probeSignature = await sign(probe, probeToken, probeNonce);
  const probeContract = { address: probe, abi: identityGuardGasProbeAbi } as const;
  const decisionArgs = [name, ticker, holder, probeToken, expiresAt, probeNonce, probeSignature] as const;
  for (const warm of [true, false]) {
    const suffix = warm ? "" : "_cold";
    const [registryGas] = await publicClient.readContract({
      ...probeContract,
      functionName: "measureRegistryCheck",
      args: [name, ticker, holder, warm],
    });
    report(`guard_registry_view_10_10${suffix}`, registryGas, " (identityHashes + reservationOf)");
    const [signerGas, trusted] = await publicClient.readContract({
      ...probeContract,
      functionName: "measureSignerCheck",
      args: [decisionKey.address, warm],
    });
    if (!trusted) throw new Error("The bench's decision key should be trusted");
    report(`guard_signer_check${suffix}`, signerGas, " (decisionSignerWindow, as the guard asks)");
    const [isSignerGas] = await publicClient.readContract({
      ...probeContract,
      functionName: "measureIsDecisionSigner",
      args: [decisionKey.address, warm],
    });
    report(
      `guard_signer_check_is_decision_signer${suffix}`,
      isSignerGas,
      " (isDecisionSigner, for comparison)",
    );
    const [verifyGas, signer] = await publicClient.readContract({
      ...probeContract,
      functionName: "measureVerifyDecision",
      args: [...decisionArgs, warm],
    });
    if (signer !== decisionKey.address) throw new Error("The probe recovered another signer");
    report(
      `guard_verify_decision_10_10${suffix}`,
      verifyGas,
      warm
        ? " (deadline, registry view, digest, reuse check, signature, signer set; registry and used slot warm)"
        : " (the same as the transaction's first touch of the registry; used slot warm, its access counts with the mark)",
    );
    const { result: consumeGas } = await publicClient.simulateContract({
      ...probeContract,
      functionName: "measureConsumeDecision",
      args: [...decisionArgs, warm],
      account: holderWallet.account,
    });
    report(`guard_consume_decision_10_10${suffix}`, consumeGas, " (verify + single-use mark + event)");
  }
  const digest = await publicClient.readContract({
    address: probe,
    abi: identityGuardGasProbeAbi,
    functionName: "launchDecisionDigest",
    args: [nameHash, tickerHash, holder, probeToken, 1, expiresAt, probeNonce],
  });
  const [recoverGas] = await publicClient.readContract({
    ...probeContract,
    functionName: "measureRecover",
    args: [digest, probeSignature],
  });
  report("guard_signature_recover", recoverGas, " (65 bytes, low s, v 27/28, ecrecover)");
}
