#!/bin/sh
# install.sh — build guardsh and put it where agents and CI will find it.
#
#   ./install.sh                 installs to ~/.local/bin
#   PREFIX=/usr/local ./install.sh
#
# It installs:
#   $PREFIX/bin/guardsh                   the binary (static, CGO_ENABLED=0)
#   $PREFIX/bin/guardsh-llm               the LLM client guardsh runs when a
#                                         decision needs a model (llm: config)
#   $PREFIX/bin/guardsh-prefix            link: a command prefix (Claude Code's
#                                         CLAUDE_CODE_SHELL_PREFIX) takes the
#                                         command string as its operand
#   $PREFIX/lib/guardsh/bash/bash         link: guardsh under the name bash, in a
#   $PREFIX/lib/guardsh/bash/sh           directory whose path contains "bash"
#                                         (Claude Code accepts only such shells;
#                                         Gemini CLI and Codex call bash from PATH)
#   $XDG_CONFIG_HOME/guardsh/config.yaml  the starter policy, if none exists
set -eu

PREFIX=${PREFIX:-$HOME/.local}
bindir=$PREFIX/bin
bashdir=$PREFIX/lib/guardsh/bash
config_dir=${XDG_CONFIG_HOME:-$HOME/.config}/guardsh
src=$(cd "$(dirname "$0")" && pwd)

command -v go >/dev/null 2>&1 || { echo "install.sh: go is needed to build guardsh (https://go.dev/dl/)" >&2; exit 1; }

mkdir -p "$bindir" "$bashdir"
version=$(git -C "$src" describe --tags --always --dirty 2>/dev/null || echo dev)
# The binaries are built in a temporary directory and copied into place:
# the Go linker writes its output through a memory map, which leaves the
# file in the page cache in small pages, and guardsh then starts some
# 0.15 ms slower (on the 2-CPU machine of the README's figures) until the
# kernel drops it from the cache. A copy is written in order, as a file read
# from disk is cached.
build=$(mktemp -d)
trap 'rm -rf "$build"' EXIT
(cd "$src" && CGO_ENABLED=0 go build -trimpath -ldflags "-s -w -X main.version=$version" -o "$build/guardsh" ./cmd/guardsh)
cp "$build/guardsh" "$bindir/guardsh.new"
mv -f "$bindir/guardsh.new" "$bindir/guardsh"
# guardsh-llm: the LLM client, run only when a decision needs a model.
(cd "$src" && CGO_ENABLED=0 go build -trimpath -ldflags "-s -w" -o "$build/guardsh-llm" ./cmd/guardsh-llm)
cp "$build/guardsh-llm" "$bindir/guardsh-llm.new"
mv -f "$bindir/guardsh-llm.new" "$bindir/guardsh-llm"
ln -sf "$bindir/guardsh" "$bindir/guardsh-prefix"
ln -sf "$bindir/guardsh" "$bashdir/bash"
ln -sf "$bindir/guardsh" "$bashdir/sh"

if [ ! -e "$config_dir/config.yaml" ]; then
  mkdir -p "$config_dir"
  "$bindir/guardsh" default-config > "$config_dir/config.yaml"
  wrote_config="wrote the starter policy to $config_dir/config.yaml"
else
  wrote_config="kept your policy at $config_dir/config.yaml"
fi

cat <<DONE
guardsh installed: $bindir/guardsh ($version)
$wrote_config
audit log: ${XDG_STATE_HOME:-$HOME/.local/state}/guardsh/audit.jsonl

Try it:
  $bindir/guardsh -c 'ls | wc -l'        # runs
  $bindir/guardsh -c 'rm -rf ~'          # refused, exit 126
  $bindir/guardsh check --json 'git push --force'

Wire it in front of your agent or CI:
  Claude Code   settings.json: {"env": {"CLAUDE_CODE_SHELL": "$bashdir/bash"}}
                (or export SHELL=$bashdir/bash before starting claude,
                 or CLAUDE_CODE_SHELL_PREFIX=$bindir/guardsh-prefix)
  Codex         start codex with PATH=$bashdir:\$PATH (it runs bash -lc from PATH)
  Gemini CLI    start gemini with PATH=$bashdir:\$PATH (it runs bash -c from PATH)
  goose         export GOOSE_SHELL=$bindir/guardsh
  Aider         export SHELL=$bindir/guardsh   (aider runs \$SHELL -c for /run)
  opencode      export SHELL=$bashdir/bash
  GitHub Actions  steps: - run: make test
                           shell: guardsh --ci {0}
                (--ci = headless, plus bash's --noprofile --norc -eo pipefail,
                 as Actions runs bash steps; plain "guardsh {0}" would go
                 on after a failing command, as "bash {0}" does). In CI,
                 install the CI preset as the config first (the starter
                 policy asks for most of a job, and CI refuses what asks):
                 $bindir/guardsh ci-config > ~/.config/guardsh/config.yaml
  GitLab, Buildkite, Jenkins  the $bashdir directory first on the
                runner's PATH, with the CI preset too
  make          SHELL := $bindir/guardsh  and  .SHELLFLAGS := -ec
  npm           npm config set script-shell $bindir/guardsh

Make sure $bindir is on your PATH.
DONE
