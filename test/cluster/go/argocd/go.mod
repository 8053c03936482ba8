// Argo CD's CRDs, taken from its module zip by test/cluster/build.sh and verified against go.sum. Nothing here is
// built: Argo CD needs Go 1.27 and its gitops-engine does not build on this machine's Go (ADR 0025), so the local
// control plane serves its real CRDs without its controller.
module binnacle.local/cluster/argocd

go 1.26.4

require github.com/argoproj/argo-cd/v3 v3.6.1
