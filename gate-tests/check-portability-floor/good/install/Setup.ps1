# Installer — Windows half
  # an indented full-line comment — is fine
Write-Host "done"
