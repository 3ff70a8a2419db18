# One case of the suite, sourced by suite.sh under set -e.
cd "${suite_dir}"
ls
cd -
