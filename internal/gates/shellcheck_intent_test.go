package gates

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gate-sdk/gates/internal/ciskip"
	"go/ast"
	"go/parser"
	"go/token"
	"sort"
)

// TestIdiomsAgainstShellCheck runs the real ShellCheck over scripts shaped
// like the corpus's deliberate idioms and over near misses of each, and
// holds which of its reports the idiom rules leave out: every idiom's
// report goes, every near miss's stays.
func TestIdiomsAgainstShellCheck(t *testing.T) {
	sc, err := exec.LookPath("shellcheck")
	if err != nil {
		ciskip.Missing(t, "shellcheck", "shellcheck is not installed; .ci/tools installs it")
		return
	}
	cases := []struct {
		name, script, code string
		left               bool // the report is left out
	}{
		{"eval agent", "eval $(ssh-agent -s)", "SC2046", true},
		{"go list packages", "go test -race $(go list ./... | grep -v third_party/)", "SC2046", true},
		{"docker ids", "docker kill $(docker ps -q)\ndocker volume rm -f $(docker volume ls -q)", "SC2046", true},
		{"date backticks", "echo `date -Is` done", "SC2046", true},
		{"uname", "dpkg -l | grep -v `uname -r`", "SC2046", true},
		{"rev-parse head", "gh run list -c $(git rev-parse HEAD)", "SC2046", true},
		{"dirname path", "cd $(dirname \"$0\")", "SC2046", false},
		{"pwd path", "docker run -v $(pwd):/src img", "SC2046", false},
		{"toplevel path", "cd $(git rev-parse --show-toplevel)", "SC2046", false},
		{"go list dirs", "ls $(go list -f '{{.Dir}}' ./...)", "SC2046", false},
		{"docker not quiet", "docker rm $(docker ps)", "SC2046", false},
		{"cat file", "cosign sign $(cat refs.txt)", "SC2046", false},
		{"ifs prefix split", "IFS=: MAIN=($GOPATH)\necho \"${MAIN[@]}\"", "SC2206", true},
		{"local ifs split", "f() {\n  local IFS=.\n  local ver=($1)\n  echo \"${ver[0]}\"\n}\nf 1.2", "SC2206", true},
		{"split without ifs", "arr=($GOPATH)\necho \"${arr[@]}\"", "SC2206", false},
		{"first field of read -ra", "V=1+x\nIFS='+' read -ra V META <<< \"$V\"\necho \"$META\"\necho \"$V\"", "SC2128", true},
		{"array without split", "arr=(a b)\necho \"$arr\"", "SC2128", false},
		{"trap set before", "TMP=$(mktemp)\ntrap \"rm -f $TMP\" EXIT\necho hi", "SC2064", true},
		{"trap set after", "trap \"rm -f $TMP\" EXIT\nTMP=$(mktemp)\necho \"$TMP\"", "SC2064", false},
		{"trap set in a loop over signals", "settrap() {\n  local func=\"$1\"\n  shift\n  local sig\n  for sig; do\n    trap \"$func $sig\" \"$sig\"\n  done\n}\nsettrap cleanup INT TERM", "SC2064", true},
		{"trap reassigned", "TMP=a\ntrap \"rm -f $TMP\" EXIT\nTMP=b\necho \"$TMP\"", "SC2064", false},
		// The sixth holdout (rekor's test scripts).
		{"trap name passed on to one command", "D=$(mktemp -d)\ntrap \"rm -rf $D\" EXIT\nif ! D=$D go test ./...; then exit 1; fi", "SC2064", true},
		{"trap name exported later", "D=$(mktemp -d)\ntrap \"rm -rf $D\" EXIT\nexport D=other go\necho \"$D\"", "SC2064", false},
		{"trap name reassigned alone later", "D=$(mktemp -d)\ntrap \"rm -rf $D\" EXIT\nD=other; echo \"$D\"", "SC2064", false},
		{"password word test", "REDIS_PASSWORD=test\necho \"$REDIS_PASSWORD\"", "SC2209", true},
		{"value a command prints", "TOOL=ls\necho \"$TOOL\"", "SC2209", false},
		{"go template format", "docker ps --filter name=x --format {{.ID}}", "SC1083", true},
		{"a lone brace pair", "echo a{b}c", "SC1083", false},
		{"grep count of a pipe", "until [ $(docker ps | grep -c \"(healthy)\") -eq 6 ]; do sleep 1; done", "SC2046", true},
		{"grep lines of a pipe", "until [ $(docker ps | grep \"(healthy)\") ]; do sleep 1; done", "SC2046", false},
		{"grep count with a context option", "echo $(docker ps | grep -c -A 1 up)", "SC2046", false},
		{"grep count over continued lines", "until [ $(docker ps -a | \\\n    grep -E \"(db|web)\" | \\\n    grep -c \"(healthy)\") == 2 ]; do sleep 1; done", "SC2046", true},
		{"lines over continued lines", "until [ $(docker ps -a | \\\n    grep \"(healthy)\") ]; do sleep 1; done", "SC2046", false},
		{"container ids by format", "docker stop $(docker ps --filter name=x --format {{.ID}})", "SC2046", true},
		{"container names by format", "docker stop $(docker ps --format '{{.Names}}')", "SC2046", false},
		{"trap name passed on with another", "D=$(mktemp -d)\ntrap \"rm -rf $D\" EXIT\nif ! D=$D HOST=h:1 go test ./...; then exit 1; fi", "SC2064", true},
		{"background job ids", "sleep 9 &\nP=$!\nwait $(jobs -p | grep -v \"$P\")", "SC2046", true},
		{"background jobs listed", "sleep 9 &\nwait $(jobs -l)", "SC2046", false},
		{"a list turned into its words", "ids=\"a b\"\nids=($ids)\necho \"${ids[@]}\"", "SC2206", true},
		{"a list moved between its forms (string)", "u=\"a b\"\nu=($u)\nn=${#u[@]}\nu=\"c d\"\necho \"$n $u\"", "SC2178", true},
		{"a list moved between its forms (expansion)", "u=\"a b\"\nu=($u)\nn=${#u[@]}\nfor x in $u; do echo \"$x $n\"; done", "SC2128", true},
		{"an array of another name", "v=\"a b\"\nu=($v)\nfor x in $u; do echo \"$x\"; done", "SC2128", false},
		{"read placeholder", "IFS=. read -r MAJ MIN PATCH <<< \"$1\"\necho \"$MAJ $MIN\"", "SC2034", true},
		{"unused plain", "X=1\necho hi", "SC2034", false},
		{"emptied CDPATH for cd", "root=$(CDPATH= cd -- \"$(dirname -- \"$0\")\" && pwd)\necho \"$root\"", "SC1007", true},
		{"emptied toolchain vars for go", "\tGOOS= GOARCH= CC= go run -tags generate \"$@\"", "SC1007", true},
		{"emptied var before a number", "x= 5", "SC1007", false},
		{"bash source's first element", "d=$(dirname \"${BASH_SOURCE}\")\necho \"$d\"", "SC2128", true},
		{"separator made a blank", "v=1-2\nparts=(${v//-/ })\necho \"${parts[1]}\"", "SC2206", true},
		{"first of a blank-split array", "v=1-2\nparts=(${v//-/ })\necho \"$parts\"", "SC2128", true},
		{"strip is no split", "v=1-2\nparts=(${v//-/})\necho \"${parts[1]}\"", "SC2206", false},
		{"computed source", ". \"$1\"\necho hi", "SC1090", true},
		{"package list for go test", "go test -run x $(for d in $(git grep -l '^func Bench' | xargs dirname); do echo \"./$d\"; done)", "SC2046", true},
		{"package list for a go wrapper", "./tool/go vet $(./tool/go run ./tool/listpkgs ./...)", "SC2046", true},
		{"package list on a continued line", "./tool/go test \\\n  -v $(./tool/go run ./tool/listpkgs ./...)", "SC2046", true},
		{"go run operand", "go run ./cmd/x $(cat args)", "SC2046", false},
		{"go env is a directory", "cp x $(go env GOPATH)/bin", "SC2046", false},
		// The eighth holdout (kubebuilder, velero, kyverno).
		{"go env architecture", "curl -Lo kind https://kind.example/kind-linux-$(go env GOARCH)", "SC2046", true},
		{"go env system and architecture", "echo $(go env GOOS GOARCH)", "SC2046", true},
		{"go env with a directory", "echo $(go env GOOS GOPATH)", "SC2046", false},
		{"array of go list", "T=($(go list ./pkg/... | grep -vE \"mocks|generated\"))\necho \"${T[@]}\"", "SC2207", true},
		{"array of a file's words", "T=($(cat list.txt))\necho \"${T[@]}\"", "SC2207", false},
		{"last awk field", "echo img@$(cat .digest | awk '/Digest/{print $NF}')", "SC2046", true},
		{"awk field cut at commas", "echo img@$(cat .digest | awk -F , '{print $NF}')", "SC2046", false},
		{"read fields before the wanted one", "IFS=. read -r major minor patch <<< \"$1\"\necho \"$patch\"", "SC2034", true},
		{"background ids waited on", "pids=()\nfor x in a b; do\n  sleep 1 \"$x\" &\n  pids+=($!)\ndone\nwait ${pids[@]}\nfor p in ${pids[*]}; do wait \"$p\"; done", "SC2068", true},
		{"background ids by index", "i=0\nsleep 1 &\nq[${i}]=$!\nfor p in ${q[*]}; do echo \"$p\"; done", "SC2048", true},
		{"a list of literal words", "servers=( http://localhost:2379 http://localhost:22379 )\nsizes=( 64 256 )\nfor s in ${servers[@]}; do for k in ${sizes[@]}; do echo \"$s $k\"; done; done", "SC2068", true},
		{"a list of quoted literal words", "arches=(\"x86_64\" 'aarch64')\nfor a in ${arches[@]}; do echo \"$a\"; done", "SC2068", true},
		{"a list holding a quoted blank", "names=(\"a b\" c)\nfor n in ${names[@]}; do echo \"$n\"; done", "SC2068", false},
		{"a list holding a glob", "pats=( '*.go' x )\nfor p in ${pats[@]}; do echo \"$p\"; done", "SC2068", false},
		{"a list holding an expansion", "dirs=( \"$HOME\" /tmp )\nfor d in ${dirs[@]}; do echo \"$d\"; done", "SC2068", false},
		{"a background id by its variable", "pids=()\nsleep 1 &\npid=$!\npids+=($pid)\nwait ${pids[@]}", "SC2206", true},
		{"the same list waited on", "pids=()\nsleep 1 &\npid=$!\npids+=($pid)\nwait ${pids[@]}", "SC2068", true},
		{"a variable read as well", "pids=()\nsleep 1 &\npid=$!\nread -r pid\npids+=($pid)", "SC2206", false},
		{"a variable set to a name too", "pids=()\nsleep 1 &\npid=$!\npid=$1\npids+=($pid)", "SC2206", false},
		{"a loop over the same list reuses the name", "pids=()\nsleep 1 &\nlocal pid=$!\npids+=($pid)\nfor pid in \"${pids[@]}\"; do kill \"$pid\"; done", "SC2206", true},
		{"a loop over another list reuses the name", "pids=()\nnames=(a b)\nsleep 1 &\npid=$!\npids+=($pid)\nfor pid in \"${names[@]}\"; do echo \"$pid\"; done", "SC2206", false},
		{"a list of quoted words over lines", "files=(\n  \"a/one_test.go\"\n  \"b/two_test.go\" # a comment\n)\nfor f in ${files[@]}; do echo \"$f\"; done", "SC2068", true},
		{"a list over lines holding a blank", "files=(\n  \"a/one test.go\"\n  b.go\n)\nfor f in ${files[@]}; do echo \"$f\"; done", "SC2068", false},
		{"a list over lines holding a substitution", "files=(\n  a.go\n  $(ls)\n)\nfor f in ${files[@]}; do echo \"$f\"; done", "SC2068", false},
		// The tenth holdout: Ollama's, Vitess's and Knative's scripts.
		{"echo to stderr of the arguments", "status() { echo >&2 \">>> $@\"; }\nstatus a b", "SC2145", true},
		{"printf of the arguments", "status() { printf >&2 \">>> $@\"; }\nstatus a b", "SC2145", false},
		{"a distribution codename", "curl -O https://repo.example.com/release_$(lsb_release -sc)_all.deb", "SC2046", true},
		{"a distribution description", "echo distro: $(lsb_release -sd)", "SC2046", false},
		{"an architecture renamed by sed", "curl -O https://dl.example.com/$(uname -m | sed -e 's/aarch64/sbsa/')/key.deb", "SC2046", true},
		{"an architecture renamed with a blank", "curl -O https://dl.example.com/$(uname -m | sed -e 's/aarch64/arm 64/')/key.deb", "SC2046", false},
		{"a pid file killed", "kill $(cat \"$PID_FILE\")", "SC2046", true},
		{"a pid file removed", "rm $(cat \"$PID_FILE\")", "SC2046", false},
		{"a function printing flags", "ko_flags() {\n  echo \"-P --platform=all\"\n}\nko resolve $(ko_flags) -f config/", "SC2046", true},
		{"a function printing a path", "log_dir() {\n  echo \"$ARTIFACTS/logs\"\n}\nmkdir -p $(log_dir)", "SC2046", false},
		{"a function answering a literal word", "use_domain() {\n  # off for now\n  echo \"false\"\n}\nrun --domain=$(use_domain)", "SC2046", true},
		{"a loop over one quoted word", "for shard in \"customer/0\"; do echo \"$shard\"; done", "SC2043", true},
		{"a loop over one quoted phrase", "for shard in \"customer 0\"; do echo \"$shard\"; done", "SC2043", false},
		{"a read of a here-string", "read -r answer <<< \"$1\"\necho go", "SC2034", false},
		{"a pause for Enter", "echo -n Press enter to continue\nread line\necho go", "SC2034", true},
		{"a status made by curl", "code=$(curl -s -o /dev/null --write-out %{http_code} https://example.com)\necho \"$code\"", "SC1083", true},
		{"a stray brace", "echo a}b", "SC1083", false},
		{"aliases made in a loop", "for b in vtctld vttablet; do\n  alias $b=\"$b --config-file-not-found-handling=ignore\"\ndone", "SC2139", true},
		{"an alias of a fixed name", "alias ll=\"ls -l $HOME\"", "SC2139", false},
		// The twelfth holdout: InfluxDB's, gum's and a Go framework's scripts.
		{"a pid file tested in an if", "if kill -0 $(cat \"$PIDFILE\") 2>/dev/null; then echo up; fi", "SC2046", true},
		{"a file list removed in an if", "if rm $(cat \"$LIST\"); then echo gone; fi", "SC2046", false},
		{"a trap stopping the job started before it", "ping -c 9 example.com &\ntrap \"kill $!; stopped=true\" INT\nwait\necho \"$stopped\"", "SC2064", true},
		{"a trap naming no job yet", "trap \"kill $!\" INT\nwait", "SC2064", false},
		{"a status read back from a file", "exit $(cat \"$dir/rc\")", "SC2046", true},
		{"the CLI's shorthand braces", "aws ec2 run-instances --block-device-mappings DeviceName=/dev/sda1,Ebs={VolumeSize=200}", "SC1083", true},
		{"a flag function given an argument", "org_flag() {\n  echo \"--org $1\"\n}\ninflux query $(org_flag \"$1\") -f q.flux", "SC2046", true},
		{"a path function given an argument", "org_dir() {\n  echo \"$HOME/$1\"\n}\nls $(org_dir \"$1\")", "SC2046", false},
		{"branch names by a ref-name format", "gum choose $(git branch --format=\"%(refname:short)\")", "SC2046", true},
		{"branches with their subjects", "gum choose $(git branch --format=\"%(refname:short) %(subject)\")", "SC2046", false},
		{"ids beside a name", "i=0\nsleep 1 &\nq[${i}]=$!\nq+=(\"$1\")\nfor p in ${q[*]}; do echo \"$p\"; done", "SC2048", false},
		{"arguments unquoted", "f() {\n  echo $@\n}\nf a", "SC2068", false},
		{"a variable compared in [[ ]]", "diff=$((1-2))\nif [[ diff -lt 0 ]]; then echo neg; fi", "SC1014", true},
		{"a command compared in [[ ]]", "if [[ diff -lt 0 ]]; then echo neg; fi", "SC1014", false},
		{"image built by ko", "kubectl set image deploy/x x=$(ko build ./cmd/x)", "SC2046", true},
		{"image digest from crane", "crane tag $(crane digest --full-ref img) v1", "SC2046", true},
		{"release tag from git describe", "echo v=$(git describe --tags --abbrev=0)", "SC2046", true},
		{"branch from git", "git push origin $(git branch --show-current)", "SC2046", true},
		{"branches listed by git", "git branch -D $(git branch)", "SC2046", false},
		{"a config from ko resolve", "kubectl apply -f $(ko resolve -f config/)", "SC2046", false},
		// The ninth holdout (cilium's and argo-cd's workflows): what a
		// GitHub expression writes into a body, and flags passed on as
		// text for a later step.
		{"an expression as a range bound", "for i in {1..${GHEXPR}}; do echo \"$i\"; done", "SC2051", true},
		{"an expression inside a substitution's range", "printf '%s' \"$(printf DNS:${GHEXPR}%d, {1..${GHEXPR}})\"", "SC2051", true},
		{"a variable as a range bound", "n=3\nfor i in {1..$n}; do echo \"$i\"; done", "SC2051", false},
		{"an expression right of ==", "k=1\nif [[ $k == ${GHEXPR} ]]; then echo y; fi", "SC2053", true},
		{"a variable right of ==", "k=1; v=2\nif [[ $k == $v ]]; then echo y; fi", "SC2053", false},
		{"an array of an expression's words", "images=( ${GHEXPR} )\necho \"${images[@]}\"", "SC2206", true},
		{"flags passed on as text (assignment)", "D=\"--set a=b\"\nD+=\" --test '!x'\"\necho d=${D} >> $GITHUB_OUTPUT", "SC2089", true},
		{"flags passed on as text (use)", "D=\"--set a=b\"\nD+=\" --test '!x'\"\necho d=${D} >> $GITHUB_OUTPUT", "SC2090", true},
		{"flags passed on over continued lines", "D=\"--set a=b \\\n  --set 'c=d e'\"\necho d=${D} >> $GITHUB_OUTPUT", "SC2089", true},
		{"flags grown in place, passed on over lines", "D=\"--set a=b\"\nif true; then\n  D=\"$D \\\n    --test '!x'\"\nfi\necho d=${D} \\\n  --more >> $GITHUB_OUTPUT", "SC2089", true},
		{"flags run with their quotes (assignment)", "T='--test \"!(a|b)\"'\nrun-tests $T", "SC2089", false},
		{"flags run with their quotes (use)", "T='--test \"!(a|b)\"'\nrun-tests $T", "SC2090", false},
		{"flags passed on and run", "T='--test \"!(a|b)\"'\necho t=$T >> \"$GITHUB_OUTPUT\"\nrun-tests $T", "SC2089", false},
		{"a count of one file", "exit $(grep -c \"^* file \" /tmp/stdout)", "SC2046", true},
		{"counts of files by a glob", "echo $(grep -c x /tmp/*.log)", "SC2046", false},
		{"a count inside backticks", "F=\"a b\"\nN=`echo $(echo \"$F\" | wc -l)`\necho \"$N\"", "SC2046", true},
		{"read field after an option's value", "read -r -t 5 answer <<< \"$1\"\necho done", "SC2034", false},
		{"a count", "[ $(wc -c <<<\"$BODY\") -lt 10 ] && echo short", "SC2046", true},
		{"a count of a pipeline", "echo $(ls | wc -l)", "SC2046", true},
		{"a count and a file name", "expr $(wc -l notes.txt)", "SC2046", false},
		{"one awk field", "install $(grep plugins go.mod | awk '{print $2}')", "SC2046", true},
		{"whole awk line", "install $(grep plugins go.mod | awk '{print}')", "SC2046", false},
		{"one field cut at blanks", "if [ \"$n\" -ne $(wc -l rows.csv | cut -f 1 -d ' ') ]; then echo short; fi", "SC2046", true},
		{"a field cut at commas", "install $(grep x rows.csv | cut -d , -f 2)", "SC2046", false},
		{"arguments read only with defaults", "confirm() {\n  read -r -p \"${1:-Continue?} \" r\n  [ \"$r\" = y ]\n}\nconfirm", "SC2120", true},
		{"arguments read bare", "greet() {\n  echo \"hi $1\"\n}\ngreet", "SC2120", false},
		{"a status set on purpose", "set -e\n$(exit $(gofmt -l . | wc -l))", "SC2091", true},
		{"a count nested in a status", "set -e\n$(exit $(gofmt -l . | wc -l))", "SC2046", true},
		{"output run as a command", "$(curl -s localhost:8080/health)", "SC2091", false},
		{"sudo output to a user file", "sudo journalctl -u x > \"$DIR/x.log\"", "SC2024", true},
		{"sudo output to tmp", "sudo containerd -l debug > /tmp/containerd.out 2>&1 &", "SC2024", true},
		{"sudo output into etc", "sudo echo 1 > /etc/x.conf", "SC2024", false},
		{"expression compared", "if [ '${GHEXPR}' == 'ltsc2022' ]; then echo y; fi", "SC2050", true},
		{"constant compared", "if [ 'a' == 'b' ]; then echo y; fi", "SC2050", false},
		{"constant compared beside an expression", "if [ 'a' == 'b' ] && [ \"${GHEXPR}\" = 'x' ]; then echo y; fi", "SC2050", false},
		{"constant test, expression echoed", "[[ 'a' == 'b' ]] && echo \"${GHEXPR}\"", "SC2050", false},
		{"ssh here-document of expressions", "ssh host sh -s << EOF\n  make | tee ${GHEXPR}\nEOF", "SC2087", true},
		{"ssh here-document of a variable", "ssh host sh -s << EOF\n  cd $HOME\nEOF", "SC2087", false},
		{"ssh here-document of a name set here", "SKIP=''\n[ -n \"$1\" ] && SKIP='-x'\nssh host sh -s <<EOF\n  run $SKIP --report '[^Restart$]'\nEOF", "SC2087", true},
		{"ssh here-document of a name set later", "ssh host sh -s <<EOF\n  run $SKIP\nEOF\nSKIP=1", "SC2087", false},
		{"a count of a redirected file", "if [ $(wc -c < \"$f\") -gt 10 ]; then echo big; fi", "SC2046", true},
		{"eval of a substitution spanning lines", "eval $(python3 -c '\nprint(\"X=1\")\n')\necho \"$X\"", "SC2046", true},
		{"here-string word", "while read -r a b; do echo \"$a $b\"; done <<<$(go mod edit -json | jq -r '.Require[] | .Path')", "SC2046", true},
		{"echo operand still globs", "echo \"Version:\" $(python3 -V 2>&1)", "SC2046", false},
		{"array into echo still globs", "echo $0 $@ >> record.txt", "SC2068", false},
		{"array in an echo string", "echo \"running $@\"", "SC2145", true},
		{"array in a command string", "printf '%s\\n' \"running $@\"", "SC2145", false},
		{"array into a function that only echoes", "say() {\n  echo -e \"\\e[31m$*\\e[0m\" 1>&2\n}\nlog() {\n  say \"repo: $@\"\n}\nlog a b", "SC2145", true},
		{"array into a function that runs more", "run() {\n  echo \"$*\"\n  \"$@\"\n}\nwrap() {\n  run \"x: $@\"\n}\nwrap a", "SC2145", false},
		{"literal path matched", "if [[ \"$0\" =~ \"scripts/gen.sh\" ]]; then echo y; fi", "SC2076", true},
		{"quoted regex matched", "if [[ \"$v\" =~ \"^v[0-9]+\" ]]; then echo y; fi", "SC2076", false},
		{"a list of one command", "for cmd in openssl ; do command -v \"$cmd\"; done", "SC2043", true},
		{"a loop of one in a pipeline's reach", "for f in $(echo a); do echo \"$f\"; done; for g in b; do echo \"$g\"; done", "SC2043", true},
		{"emptied vars before a chosen program", "go=go\ntags=$(GOOS= GOARCH= $go run ./cmd/tags --min)\necho \"$tags\"", "SC1007", true},
		{"emptied var before a lone variable", "y=1\nx= $y", "SC1007", false},
		{"a merge base inside another substitution", "files=$(git diff --name-only $(git merge-base origin/main \"$H\") \"$H\" | xargs)\necho \"$files\"", "SC2046", true},
		{"a date in a quoted format", "echo x --suffix=$(date '+%s')", "SC2046", true},
		{"a date in a quoted format with a blank", "echo x $(date '+%F %T')", "SC2046", false},
		{"a date in a format a variable holds", "echo $(date +$FMT)", "SC2046", false},
		{"a describe of a variable's ref", "tag=$(echo $(git describe --tags \"$REF\"))\necho \"$tag\"", "SC2046", true},
		{"a line count with its blanks cut", "test $(cat \"$1\" | wc -l | tr -d \" \") -ge 2 && echo ok", "SC2046", true},
		{"the first column of du", "expr $(du -k \"$1\" | awk \"{print \\$1}\") \"*\" 2", "SC2046", true},
		{"all columns of du", "echo $(du -k \"$1\" | awk \"{print}\")", "SC2046", false},
		{"literals joined in an assignment", "nr=1\nname=\"r_\"${nr}\"_c_\"$(date +%s)\necho \"$name\"", "SC2027", true},
		{"literals joined in a local", "f() {\n  local name=\"r_\"$1\"_c\"\n  echo \"$name\"\n}\nf 1", "SC2027", true},
		{"a blank before the quote in an assignment", "x=1\nmsg=\"say \"$x\" now\"\necho \"$msg\"", "SC2027", false},
		{"literals joined in an echo operand", "n=1\necho \"r_\"$n\"_c\"", "SC2027", false},
		{"a second word after an assignment", "n=1\nx=1 echo \"r_\"$n\"_c\"", "SC2027", false},
		{"a value spliced into an eval'd body", "addr='\"[\\\"a\\\"]\"'\nspec_case x 'cfg --json '$addr' && echo ok'", "SC2090", true},
		{"its assignment, spliced everywhere", "addr='\"[\\\"a\\\"]\"'\nspec_case x 'cfg --json '$addr' && echo ok'", "SC2089", true},
		{"a value used as words", "addr='\"[\\\"a\\\"]\"'\ncfg --json $addr", "SC2090", false},
		{"its assignment, used as words once", "addr='\"[\\\"a\\\"]\"'\nspec_case x 'cfg '$addr''\ncfg --json $addr", "SC2089", false},
	}
	dir := t.TempDir()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			text := "#!/bin/bash\n" + c.script + "\n"
			p := filepath.Join(dir, strings.ReplaceAll(c.name, " ", "-")+".sh")
			if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
			out, _ := exec.Command(sc, append(append([]string(nil), scFileFlags...), p)...).Output()
			idioms := readIdioms(text)
			seen := 0
			for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
				m := scFileLine.Get().FindStringSubmatch(l)
				if m == nil || !strings.HasSuffix(m[5], "["+c.code+"]") {
					continue
				}
				seen++
				line, col := atoi(t, m[2]), atoi(t, m[3])
				if got := idiomMayApply(m[5]) && idioms.intended(line, col, m[5]); got != c.left {
					t.Errorf("%s at %d:%d: left out = %v, want %v (line %q)", c.code, line, col, got, c.left, idioms.lines[line-1])
				}
			}
			if seen == 0 {
				t.Fatalf("ShellCheck reported no %s; its output:\n%s", c.code, out)
			}
		})
	}
}

// TestSh3043LeftOutOnlyForLocal: SC3043 (local in sh) is left out; another
// sh-dialect report on the same script stays.
func TestSh3043LeftOutOnlyForLocal(t *testing.T) {
	s := readIdioms("#!/bin/sh\nf() { local x=1; echo \"$x\"; }\n")
	if !s.intended(2, 7, "In POSIX sh, 'local' is undefined. [SC3043]") {
		t.Fatal("SC3043 kept")
	}
	if s.intended(2, 7, "In POSIX sh, [[ ]] is undefined. [SC3010]") {
		t.Fatal("SC3010 left out")
	}
	if s.intended(9, 1, "In POSIX sh, 'local' is undefined. [SC3043]") {
		t.Fatal("a report past the script's end was left out")
	}
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	n := 0
	for _, r := range s {
		if r < '0' || r > '9' {
			t.Fatalf("not a number: %q", s)
		}
		n = n*10 + int(r-'0')
	}
	return n
}

// TestGeneratedScript: the generated mark is read in a file's first ten
// lines only, and cobra's completion header on its first line only.
func TestGeneratedScript(t *testing.T) {
	pad := strings.Repeat("echo\n", 10)
	for src, want := range map[string]bool{
		"#!/bin/sh\n# Code generated by stubgen. DO NOT EDIT.\nx=1\n":            true,
		"# Code generated by protoc-gen-x DO NOT EDIT\n":                         false, // no full stop
		"#!/bin/sh\n# Code generated by hand; edit freely.\n":                    false,
		pad + "# Code generated by stubgen. DO NOT EDIT.\n":                      false,
		"# bash completion for restic                   -*- shell-script -*-\n":  true,
		"# bash completion V2 for kubectl    -*- shell-script -*-\nf() { :; }\n": true,
		"#!/bin/bash\n# bash completion for restic  -*- shell-script -*-\n":      false,
		"# bash completion for restic\n":                                         false,
	} {
		if got := generatedScript([]byte(src)); got != want {
			t.Errorf("generatedScript(%q) = %v, want %v", src, got, want)
		}
	}
}

// TestIdiomCodesMatchTheRules: the codes idiomMayApply lets through are
// exactly the codes intended's switch has a rule for, read from the
// source, so neither list can grow without the other.
func TestIdiomCodesMatchTheRules(t *testing.T) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "shellcheck.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var cases []string
	ast.Inspect(f, func(n ast.Node) bool {
		fn, ok := n.(*ast.FuncDecl)
		if !ok || fn.Name.Name != "intended" || fn.Recv == nil {
			return true
		}
		ast.Inspect(fn.Body, func(n ast.Node) bool {
			cc, ok := n.(*ast.CaseClause)
			if !ok {
				return true
			}
			for _, e := range cc.List {
				call, ok := e.(*ast.CallExpr)
				if !ok || len(call.Args) != 2 {
					continue
				}
				if lit, ok := call.Args[1].(*ast.BasicLit); ok && lit.Kind == token.STRING {
					cases = append(cases, strings.Trim(lit.Value, `"`))
				}
			}
			return true
		})
		return false
	})
	if len(cases) == 0 {
		t.Fatal("no case of intended's switch read")
	}
	got := append([]string(nil), idiomCodes...)
	sort.Strings(got)
	sort.Strings(cases)
	if strings.Join(got, " ") != strings.Join(cases, " ") {
		t.Errorf("idiomCodes %v, but intended's switch has rules for %v", got, cases)
	}
}

// TestSourcedNames: a library's name is the sourcing script's business
// when that script reads it (SC2034) or sets it before the source
// (SC2154); a name no sourcer deals with, a script that sources another
// file, or a name set only after the source keeps its report.
func TestSourcedNames(t *testing.T) {
	texts := map[string][]byte{
		"make/cluster.sh": []byte("#!/bin/bash\nhere=$(dirname \"$0\")\nK8S=1\nsource \"$here/config/lib.sh\"\necho \"${green}$K8S\"\nLATE=2\n"),
		"make/other.sh":   []byte("#!/bin/bash\n. ./helpers.sh\necho \"$red\"\n"),
		// A test sourcing a common library that sources the hashes file.
		"t/t01.sh":        []byte("#!/bin/bash\nPRESET=1\n. lib/common.sh\necho \"$HASH_EMPTY\"\n"),
		"t/lib/common.sh": []byte("#!/bin/bash\n. lib/hashes.sh\n"),
	}
	s := readSourcers(texts)
	strict := readSourcers(map[string][]byte{
		"run.sh":   []byte("#!/bin/bash\nset -eo pipefail\n. ${dir}/cases/one.sh\n"),
		"other.sh": []byte("#!/bin/bash\n. ./cases/two.sh\nset -e\n"),
		"third.sh": []byte("#!/bin/bash\nset -o errexit\nsource ./cases/two.sh\n"),
	})
	if !strict.sourcedUnderErrexit("cases/one.sh") {
		t.Error("one.sh is sourced only after set -e")
	}
	if strict.sourcedUnderErrexit("cases/two.sh") {
		t.Error("two.sh is also sourced before a set -e")
	}
	if strict.sourcedUnderErrexit("cases/three.sh") || s.sourcedUnderErrexit("make/helpers.sh") {
		t.Error("a file sourced by no script under set -e")
	}
	for _, tc := range []struct {
		target, text string
		want         bool
	}{
		{"make/config/lib.sh", "green appears unused. Verify use (or export if used externally). [SC2034]", true},
		{"make/config/lib.sh", "gray appears unused. Verify use (or export if used externally). [SC2034]", false},
		{"make/config/lib.sh", "K8S is referenced but not assigned. [SC2154]", true},
		{"make/config/lib.sh", "K8S is referenced but not assigned (did you mean 'K8s'?). [SC2154]", true},
		{"make/config/lib.sh", "K8S is referenced but not assigned (for output from commands, use \"$(K8S ...)\" ). [SC2154]", true},
		{"make/config/lib.sh", "LATE is referenced but not assigned. [SC2154]", false},
		{"make/config/lib.sh", "red appears unused. Verify use (or export if used externally). [SC2034]", false},
		{"make/helpers.sh", "red appears unused. Verify use (or export if used externally). [SC2034]", true},
		{"make/cluster.sh", "green appears unused. Verify use (or export if used externally). [SC2034]", false},
		{"t/lib/hashes.sh", "HASH_EMPTY appears unused. Verify use (or export if used externally). [SC2034]", true},
		{"t/lib/hashes.sh", "HASH_FULL appears unused. Verify use (or export if used externally). [SC2034]", false},
		{"t/lib/hashes.sh", "PRESET is referenced but not assigned. [SC2154]", true},
		{"t/lib/common.sh", "HASH_EMPTY appears unused. Verify use (or export if used externally). [SC2034]", true},
	} {
		if got := s.sourcedName(tc.target, tc.text); got != tc.want {
			t.Errorf("sourcedName(%s, %q) = %v, want %v", tc.target, tc.text, got, tc.want)
		}
	}
}

// TestParseErrors holds assertion V: only a file ShellCheck stopped
// parsing is cut to its parser's errors; a parsed file keeps every report.
func TestParseErrors(t *testing.T) {
	stopped := []scReport{
		{line: 4, level: "error", text: "This is interpreted as a command name containing '='. Bad assignment or comparison? [SC2276]"},
		{line: 4, level: "warning", text: "This { is literal. Check expression (missing ;/\\n?) or quote it. [SC1083]"},
		{line: 6, level: "error", text: "Parsing stopped here. Mismatched keywords or invalid parentheses? [SC1070]"},
		{line: 6, level: "error", text: "Unexpected start of line. If breaking lines, |/||/&& should be at the end of the previous one. [SC1133]"},
	}
	kept, held := parseErrors(stopped)
	if held != 2 || len(kept) != 2 || kept[0].line != 6 || kept[1].text != stopped[3].text {
		t.Errorf("stopped file: kept %+v, held %d; want the two SC1xxx errors, 2 held", kept, held)
	}
	for _, code := range parseStops {
		if _, held := parseErrors([]scReport{{level: "error", text: "x " + code}, {level: "warning", text: "y [SC2086]"}}); held != 1 {
			t.Errorf("%s does not mark the file unparsed", code)
		}
	}
	parsed := []scReport{
		{line: 2, level: "error", text: "Iterating over ls output is fragile. Use globs. [SC2045]"},
		{line: 3, level: "error", text: "Couldn't parse this as a number [SC1119]"},
		{line: 5, level: "warning", text: "x appears unused. [SC2034]"},
	}
	if kept, held := parseErrors(parsed); kept != nil || held != 0 {
		t.Errorf("parsed file cut: %+v, %d", kept, held)
	}
}

// TestSourceOperands reads a source command's operand as one shell word,
// through quotes and $(…) (workflow.ShellWords: quotes dropped).
func TestSourceOperands(t *testing.T) {
	for line, want := range map[string][]string{
		`source "$(dirname "$0")/../common.sh"`:          {`$(dirname $0)/../common.sh`},
		`. ../../third_party/demo-magic/demo-magic.sh`:   {`../../third_party/demo-magic/demo-magic.sh`},
		`if true; then . 'lib dir/x.sh'; fi`:             {`lib dir/x.sh`},
		`source "$here"/lib.sh && echo ok`:               {`$here/lib.sh`},
		`(source ./env.sh)`:                              {`./env.sh`},
		`[ -f x ] && . "${ROOT}/hack/lib/init.sh" # why`: {`${ROOT}/hack/lib/init.sh`},
		`echo source of truth`:                           nil,
		`x=./a.sh`:                                       nil,
	} {
		got := sourceOperands(line)
		if strings.Join(got, "\x00") != strings.Join(want, "\x00") {
			t.Errorf("%s: got %q, want %q", line, got, want)
		}
	}
}
