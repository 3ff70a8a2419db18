Write-Host "done — ok"
Write-Host "x" # —
$body = @"
# — inside a here-string is code
"@
