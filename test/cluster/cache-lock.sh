# Sourced by every script that writes into the shared cache (~/.cache/binnacle): build.sh, helm.sh and
# go/build-tool.sh. One lock for all of them, so two checkouts bootstrapping on one machine never write the same
# `.partial` directory at once. Callers check for their result before and again after taking it: the one that
# waited finds the other's result and builds nothing. Never call one of these scripts while holding the lock
# (flock on a second open of the file would wait for itself).
# usage: . cache-lock.sh; cache_lock
cache_root=${BINNACLE_CACHE_DIR:-$HOME/.cache/binnacle}
cache_lock() {
  mkdir -p "$cache_root"
  exec 9>"$cache_root/build.lock"
  flock 9
}
