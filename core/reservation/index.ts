export * from "./policy";
export * from "./reservationId";
export * from "./revenueShare";
export * from "./status";
