# bin/install.ps1 — the installer bootstrap for Windows (PowerShell 5.1 or
# later); bin/install.sh is its POSIX twin and behaves the same way.
#
# no-port: the bootstrap places the binary, so no binary exists yet to run it.
#
#   powershell -File install.ps1 [-NoInit] [-Sha256 <hex>] <payload> [<init-arg>...]
#
# <payload> is a payload directory or a .tar.gz, a local path or an http(s)
# URL. Run from inside the git repository to install into. It picks the
# host's target from the payload's targets.list, verifies that artifact
# against its .sha256 sidecar, and only then runs the verified binary's
# init. A host the roster does not carry, a missing artifact or a digest
# that does not match is refused at exit 2 with nothing placed.
param(
	[switch]$NoInit,
	[AllowEmptyString()][string]$Sha256 = $null,
	[Parameter(Position = 0, Mandatory = $true)][string]$Payload,
	[Parameter(Position = 1, ValueFromRemainingArguments = $true)][string[]]$InitArgs = @()
)
$ErrorActionPreference = 'Stop'
$Given = $Payload

function Die([string]$msg) {
	[Console]::Error.WriteLine("install: $msg")
	exit 2
}

function Sha256Of([string]$path) {
	(Get-FileHash -Algorithm SHA256 -LiteralPath $path).Hash.ToLowerInvariant()
}

# assertion D: a digest given is 64 hex digits; an empty one (an unset
# variable) is refused rather than read as "no digest".
if ($PSBoundParameters.ContainsKey('Sha256')) {
	if (-not $Sha256) { Die '-Sha256 was given an empty digest (an unset variable?); nothing placed' }
	if ($Sha256 -notmatch '^[0-9A-Fa-f]{64}$') { Die "-Sha256 $Sha256 is not a 64-digit hex sha256 digest; nothing placed" }
}

if (-not (Get-Command git -ErrorAction SilentlyContinue)) { Die 'git is not on PATH; git is the one program gates needs' }
$top = (& git rev-parse --show-toplevel 2>$null)
if ($LASTEXITCODE -ne 0 -or -not $top) { Die "$(Get-Location) is not inside a git repository; run the installer from the repository to install into" }

$scratch = Join-Path ([IO.Path]::GetTempPath()) ("gates-install." + [Guid]::NewGuid().ToString('N'))
New-Item -ItemType Directory -Path $scratch | Out-Null
try {
	$src = $Payload
	if ($src -match '^file://') { $src = ([Uri]$src).LocalPath }
	if ($src -match '^https?://') {
		$fetched = Join-Path $scratch 'payload.tar.gz'
		try { Invoke-WebRequest -UseBasicParsing -Uri $src -OutFile $fetched } catch { Die "could not fetch ${src}: $_" }
		$src = $fetched
	}
	# assertion E: the tarball is copied into the scratch directory once,
	# and that copy is both hashed and unpacked.
	if ((Test-Path -LiteralPath $src -PathType Leaf) -and ($src -ne (Join-Path $scratch 'payload.tar.gz'))) {
		$copyTar = Join-Path $scratch 'payload.tar.gz'
		Copy-Item -LiteralPath $src -Destination $copyTar
		$src = $copyTar
	}
	if ($Sha256) {
		if (-not (Test-Path -LiteralPath $src -PathType Leaf)) { Die "-Sha256 verifies a payload tarball, and $Given is not a file" }
		$got = Sha256Of $src
		if ($got -ne $Sha256.ToLowerInvariant()) { Die "the payload $Given has sha256 $got, not the published $Sha256; nothing placed" }
	}
	if (Test-Path -LiteralPath $src -PathType Container) {
		$root = $src
	} elseif (Test-Path -LiteralPath $src -PathType Leaf) {
		$root = Join-Path $scratch 'payload'
		New-Item -ItemType Directory -Path $root | Out-Null
		# assertion F: the gzip stream is read whole before tar sees it, so a
		# corrupt stream is refused on its own account.
		$plain = Join-Path $scratch 'payload.tar'
		try {
			$in = [IO.File]::OpenRead($src)
			$gz = New-Object IO.Compression.GZipStream($in, [IO.Compression.CompressionMode]::Decompress)
			$out = [IO.File]::Create($plain)
			$gz.CopyTo($out)
		} catch {
			Die "$Given is not a readable .tar.gz (the gzip stream is damaged: $_); nothing placed"
		} finally {
			if ($out) { $out.Dispose() }
			if ($gz) { $gz.Dispose() }
			if ($in) { $in.Dispose() }
		}
		& tar -xf $plain -C $root
		if ($LASTEXITCODE -ne 0) { Die "$Given is neither a payload directory nor a readable .tar.gz" }
	} else {
		Die "no payload at $Given"
	}

	$roster = Join-Path $root 'targets.list'
	if (-not (Test-Path -LiteralPath $roster -PathType Leaf)) { Die "the payload $src carries no targets.list, so it declares no platform; nothing placed" }
	$arch = switch ($env:PROCESSOR_ARCHITECTURE) { 'AMD64' { 'amd64' } 'ARM64' { 'arm64' } 'x86' { '386' } default { "$env:PROCESSOR_ARCHITECTURE".ToLowerInvariant() } }
	$hostTarget = "windows/$arch"
	if ($env:GATES_INSTALL_HOST) { $hostTarget = $env:GATES_INSTALL_HOST }
	$carried = @(Get-Content -LiteralPath $roster | ForEach-Object { ($_ -replace '#.*', '').Trim() } | Where-Object { $_ })
	if ($carried -notcontains $hostTarget) {
		Die "this host is $hostTarget, which the payload's roster ($roster`: $($carried -join ' ')) does not carry; no artifact is built for it, so nothing was placed"
	}
	$dir = Join-Path (Join-Path $root 'artifact') $hostTarget
	if (-not (Test-Path -LiteralPath $dir -PathType Container)) { Die "the roster carries $hostTarget but the payload has no ${dir}: a broken payload; fetch the release again. Nothing placed" }
	$bins = @(Get-ChildItem -LiteralPath $dir -File | Where-Object { $_.Name -notlike '*.sha256' })
	if ($bins.Count -ne 1) { Die "$dir holds $($bins.Count) artifacts, not one: a broken payload; nothing placed" }
	$name = $bins[0].Name
	$side = Join-Path $dir "$name.sha256"
	if (-not (Test-Path -LiteralPath $side -PathType Leaf)) { Die "$dir\$name has no $name.sha256 sidecar: a broken payload; nothing placed" }
	$want = ((Get-Content -LiteralPath $side -TotalCount 1) -split '\s+')[0].ToLowerInvariant()

	$copy = Join-Path $scratch $name
	Copy-Item -LiteralPath (Join-Path $dir $name) -Destination $copy
	$got = Sha256Of $copy
	if ($got -ne $want) { Die "$dir\$name has sha256 $got but its sidecar says $want; refusing it, nothing placed" }

	Set-Location -LiteralPath $top
	if ($NoInit) {
		$line = (& $copy --emit knob-values GATE_SDK_NATIVE_BIN)
		if ($LASTEXITCODE -ne 0 -or -not $line) { Die 'the verified binary could not resolve GATE_SDK_NATIVE_BIN' }
		$bin = ($line -split "`t", 3)[2]
		$parent = Split-Path -Parent $bin
		if ($parent) { New-Item -ItemType Directory -Force -Path $parent | Out-Null }
		Copy-Item -LiteralPath $copy -Destination $bin -Force
		[Console]::Error.WriteLine("install: placed $bin ($hostTarget, sha256 $got)")
		exit 0
	}
	# assertion G: the payload's address and digest go to init, which seeds the CI
	# workflow with both; a payload given as a plain path is not handed on.
	if ($Given -match '^(https?|file)://') {
		$env:GATES_PAYLOAD_URL = $Given
		$tar = Join-Path $scratch 'payload.tar.gz'
		if (Test-Path -LiteralPath $tar -PathType Leaf) { $env:GATES_PAYLOAD_SHA256 = Sha256Of $tar }
	}
	& $copy init @InitArgs
	exit $LASTEXITCODE
} finally {
	Remove-Item -Recurse -Force -LiteralPath $scratch -ErrorAction SilentlyContinue
}
