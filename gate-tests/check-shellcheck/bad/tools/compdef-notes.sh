# compdef notes: this is a plain sh helper, not a zsh completion file.
cd /tmp
echo "in $PWD"
