// The CRDs of the ecosystem projects Binnacle understands (packages/common/src/ecosystem.ts, ADR 0127), taken from
// their released module zips by test/cluster/build.sh and verified against go.sum. Nothing here is compiled.
module binnacle.local/cluster/ecosystem

go 1.26.4

require (
	github.com/cert-manager/cert-manager v1.19.1
	github.com/cloudnative-pg/cloudnative-pg v1.27.0
	github.com/crossplane/crossplane/v2 v2.1.0
	github.com/kedacore/keda/v2 v2.18.0
	github.com/kyverno/kyverno v1.19.1
	github.com/vmware-tanzu/velero v1.18.3
	istio.io/api v1.32.0
	knative.dev/serving v0.47.0
	sigs.k8s.io/gateway-api v1.6.3
	sigs.k8s.io/karpenter v1.8.0
)
