set -u
export PS1= HISTFILE=
unset <%= cleared_names.join(' ') %>
<% if with_bindings %>
source <%= bindings_path %>
<% end %>
