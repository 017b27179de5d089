// Package discovery owns kscope's knowledge of what the cluster serves: the catalog of every API resource
// (built-in, CRD and aggregated) read through kubectl's cached, aggregated DiscoveryClient; the resolution of
// user input ("po", "deploy", "widgets.shop.example.com", "deployments.v1.apps") to a GroupVersionResource
// exactly as kubectl resolves it; the `kscope api-resources` printer, byte-identical to kubectl's; and the live
// refresh of the catalog when CRDs or APIServices change. StaticCatalog, for tests, is a Catalog whose
// discovery documents are built in memory from a list of resources.
package discovery
