#!/usr/bin/env bash
# Builds stripe-mock (Stripe's API mock server, for the hub billing tests) from this wrapper module, once per
# go.mod/go.sum, into ~/.cache/binnacle/go-stripe-mock-<hash>/stripe-mock; prints the binary's path.
exec bash "$(dirname "$0")/../build-tool.sh" stripe-mock stripe-mock github.com/stripe/stripe-mock stripe-mock
