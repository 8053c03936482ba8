#!/usr/bin/env bash
# Builds VictoriaMetrics single-node (the second metrics store of the integration tests) from this wrapper module,
# once per go.mod/go.sum, into ~/.cache/binnacle/go-victoriametrics-<hash>/victoria-metrics; prints the binary's path.
exec bash "$(dirname "$0")/../build-tool.sh" victoriametrics victoria-metrics \
  github.com/VictoriaMetrics/VictoriaMetrics/app/victoria-metrics 'VictoriaMetrics single-node'
