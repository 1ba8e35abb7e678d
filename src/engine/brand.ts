/**
 * Branded domain types: a ContainerId cannot be passed where an IfName is meant, although both
 * are strings at run time. Use the `as*` constructors at trust boundaries (after validation or
 * for literals in tests); the values themselves carry no runtime wrapper.
 */
declare const brandTag: unique symbol;
export type Brand<T, B extends string> = T & { readonly [brandTag]: B };

export type ContainerId = Brand<string, 'ContainerId'>;
export type NetnsPath = Brand<string, 'NetnsPath'>;
export type IfName = Brand<string, 'IfName'>;
export type Cidr = Brand<string, 'Cidr'>;
export type IpString = Brand<string, 'IpString'>;
export type MacAddress = Brand<string, 'MacAddress'>;
export type CniVersion = Brand<string, 'CniVersion'>;
export type NetworkName = Brand<string, 'NetworkName'>;
export type PluginType = Brand<string, 'PluginType'>;
export type NetnsId = Brand<string, 'NetnsId'>;
export type NodeName = Brand<string, 'NodeName'>;
export type FilePath = Brand<string, 'FilePath'>;

export const asContainerId = (s: string) => s as ContainerId;
export const asNetnsPath = (s: string) => s as NetnsPath;
export const asIfName = (s: string) => s as IfName;
export const asCidr = (s: string) => s as Cidr;
export const asIpString = (s: string) => s as IpString;
export const asMac = (s: string) => s as MacAddress;
export const asCniVersion = (s: string) => s as CniVersion;
export const asNetworkName = (s: string) => s as NetworkName;
export const asPluginType = (s: string) => s as PluginType;
export const asNetnsId = (s: string) => s as NetnsId;
export const asNodeName = (s: string) => s as NodeName;
export const asFilePath = (s: string) => s as FilePath;
