#!/usr/bin/env bash
# `make demo`: the main job on the bundled examples.
set -euo pipefail
GZI=${1:-gzinertia}
cd "$(dirname "$0")/.."
export COLUMNS=${COLUMNS:-110}

echo "== gzinertia show: the torpedo AUV (CoM offset, rotated inertial frame) =="
"$GZI" show sdf_examples/torpedo_auv/model.sdf --link hull
echo
echo "== gzinertia show: the harbour world (frames, nested models, includes): the nested beacon =="
"$GZI" show sdf_examples/harbour_world.sdf --model-path sdf_examples --link 'mooring::beacon::*'
echo
echo "== gzinertia addmass: Tuckerman ellipsoid added mass for a copy of the torpedo AUV's hull =="
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r sdf_examples/torpedo_auv "$work/"
"$GZI" addmass "$work/torpedo_auv/model.sdf" --ellipsoid --link hull --fluid seawater --diff
"$GZI" addmass "$work/torpedo_auv/model.sdf" --ellipsoid --link hull --fluid seawater --in-place
echo "-- a second run changes nothing (--check exits 0):"
"$GZI" addmass "$work/torpedo_auv/model.sdf" --ellipsoid --link hull --fluid seawater --check
echo
echo "== gzinertia audit: the examples (sdf_examples/defects/ holds deliberate defects) =="
"$GZI" audit sdf_examples --model-path sdf_examples || true
