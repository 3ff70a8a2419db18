# bin/run-gates.ps1 — the PowerShell front end of the gates binary, twin of
# bin/run-gates.sh for a Windows host with no bash.
#
# no-port: the front end locates the gates binary it then executes, which the binary cannot do for itself.
#
# It does what the shell stub does and nothing more: read the fail-open set
# against the first argument, find the repository toplevel and enter it,
# export GATE_SDK_ROOT from its own location, resolve the binary over
# GATE_SDK_NATIVE_BIN, and run it, exiting with its status. PowerShell
# cannot source lib/gate.sh, so the few accessors this needs are written
# again here, each marked "twin of <function>". Its lines are UTF-8 with a bare LF.
# Runs under Windows PowerShell 5.1 and PowerShell 7.
#
# Honest limit: it ascends the logical path, not the physical one, when it
# looks for a .git entry above a directory git refused.

# The arms whose caller is a harness that reads exit 0 as "let it through".
# internal/failopen (held equal to the arm table) is the authoritative copy;
# check-front-end-fail-open holds this line and the shell stub's to it.
# assertion A: one declaration line, read before anything else.
$FailOpenArms = @('--hook', '--statusline')

$ErrorActionPreference = 'Stop'
# The installer bootstrap's two argument-passing settings: pass arguments to
# native programs verbatim, and never turn a native exit status into an error.
$PSNativeCommandArgumentPassing = 'Standard'
$PSNativeCommandUseErrorActionPreference = $false

[System.Environment]::CurrentDirectory = (Get-Location -PSProvider FileSystem).ProviderPath

$ArmUnavailableStatus = 2
$First = ''
if ($args.Count -gt 0) { $First = [string]$args[0] }
if ($FailOpenArms -ccontains $First) { $ArmUnavailableStatus = 0 }

$EnvelopeBin = '{"systemMessage": "gate-sdk: the hook guards of this tree are not running: the gates binary is absent or not executable. Build or install the gates binary, or point GATE_SDK_NATIVE_BIN at it; run-gates.sh names the path on stderr."}'
$EnvelopeGit = '{"systemMessage": "gate-sdk: the hook guards of this tree are not running: git found no repository here, refuses it, or skipped a nested one. Run git status here, or git --git-dir=<that .git> status for a skipped nested repository; run-gates.sh names it on stderr."}'
$EnvelopeNoGit = '{"systemMessage": "gate-sdk: the hook guards of this tree are not running: git is not installed or not on PATH. Install git, the one program gates needs; run-gates.sh says so on stderr."}'

$IsWindowsHost = [System.IO.Path]::DirectorySeparatorChar -eq '\'

# .NET resolves relative paths against the process directory, which
# Set-Location does not move; every relative path goes through Get-Abs.
function Get-Abs([string]$P) {
    if (Test-PathRooted $P) { return $P }
    return [System.IO.Path]::Combine((Get-Location -PSProvider FileSystem).ProviderPath, $P)
}

function Write-Bytes([System.IO.Stream]$Stream, [string]$Text) {
    $bytes = [System.Text.Encoding]::UTF8.GetBytes($Text + "`n")
    $Stream.Write($bytes, 0, $bytes.Length)
    $Stream.Flush()
}

# Decline: each line on stderr with the run-gates: prefix, the envelope on
# stdout for --hook, then the arm's unavailable status.
function Invoke-Decline([string]$Envelope, [string[]]$Lines) {
    $err = [Console]::OpenStandardError()
    foreach ($l in $Lines) { Write-Bytes $err ('run-gates: ' + $l) }
    if ($First -ceq '--hook') { Write-Bytes ([Console]::OpenStandardOutput()) $Envelope }
    exit $ArmUnavailableStatus
}

# Quotes one argument for a Windows command line (the rules the C runtime
# parses): wrapped in double quotes when it holds a blank or a quote, with
# backslashes before a quote doubled.
function ConvertTo-Arg([string]$A) {
    if ($A -ne '' -and $A -notmatch '[\s"]') { return $A }
    $b = New-Object System.Text.StringBuilder
    $null = $b.Append('"')
    $slashes = 0
    foreach ($c in $A.ToCharArray()) {
        if ($c -eq '\') { $slashes++; continue }
        if ($c -eq '"') { $null = $b.Append([char]'\', 2 * $slashes + 1) } elseif ($slashes) { $null = $b.Append([char]'\', $slashes) }
        $slashes = 0
        $null = $b.Append($c)
    }
    $null = $b.Append([char]'\', 2 * $slashes)
    $null = $b.Append('"')
    return $b.ToString()
}

# Runs git with fixed arguments in the working directory; answers the exit
# code and stdout verbatim (stderr discarded).
function Invoke-Git([string[]]$GitArgs) {
    $psi = New-Object System.Diagnostics.ProcessStartInfo
    $psi.FileName = 'git'
    $psi.Arguments = (($GitArgs | ForEach-Object { ConvertTo-Arg $_ }) -join ' ')
    $psi.UseShellExecute = $false
    $psi.RedirectStandardOutput = $true
    $psi.RedirectStandardError = $true
    $psi.StandardOutputEncoding = New-Object System.Text.UTF8Encoding($false)
    $psi.WorkingDirectory = (Get-Location -PSProvider FileSystem).ProviderPath
    try { $p = [System.Diagnostics.Process]::Start($psi) } catch { return @{ Code = 127; Out = '' } }
    $errTask = $p.StandardError.ReadToEndAsync()
    $out = $p.StandardOutput.ReadToEnd()
    $p.WaitForExit()
    $null = $errTask.Result
    return @{ Code = $p.ExitCode; Out = $out }
}

# twin of gate_path_rooted: a leading / or \, or an ASCII letter, a colon,
# then / or \.
function Test-PathRooted([string]$P) {
    return $P -cmatch '^([/\\]|[ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz]:[/\\])'
}

# twin of _gate_spell: a relative path with no ./ or ../ anchor gets ./.
function Get-Spelled([string]$P) {
    if ((Test-PathRooted $P) -or $P.StartsWith('./') -or $P.StartsWith('../')) { return $P }
    return './' + $P
}

# twin of _gate_knob_file_value: the first `NAME = value` line's value, or
# $null. Malformed lines are skipped.
function Get-KnobFileValue([string]$File, [string]$Name) {
    $File = Get-Abs $File
    if (-not [System.IO.File]::Exists($File)) { return $null }
    try { $text = [System.IO.File]::ReadAllText($File) } catch { return $null }
    foreach ($raw in $text.Split("`n")) {
        $line = $raw.TrimEnd("`r")
        $eq = $line.IndexOf('=')
        if ($eq -lt 0) { continue }
        if ($line.Substring(0, $eq).Trim(' ', "`t") -cne $Name) { continue }
        $value = $line.Substring($eq + 1)
        if ($value.Contains("`t")) { continue }
        return $value.Trim(' ')
    }
    return $null
}

# twin of _gate_prebinary_knob: environment (an exported empty value
# counts), overlay, tracked file, then the default; an empty value answers
# the default.
function Get-PrebinaryKnob([string]$Name, [string]$Default) {
    $value = [System.Environment]::GetEnvironmentVariable($Name)
    if ($null -eq $value) {
        $dir = $env:GATE_SDK_GATES_DIR
        if ([string]::IsNullOrEmpty($dir)) { $dir = 'scripts' }
        $overlay = $env:GATE_SDK_LOCAL_KNOB_FILE
        if ([string]::IsNullOrEmpty($overlay)) { $overlay = "$dir/gate-sdk-config.local.knobs" }
        $tracked = $env:GATE_SDK_KNOB_FILE
        if ([string]::IsNullOrEmpty($tracked)) { $tracked = "$dir/gate-sdk-config.knobs" }
        $value = Get-KnobFileValue $overlay $Name
        if ($null -eq $value) { $value = Get-KnobFileValue $tracked $Name }
    }
    if ([string]::IsNullOrEmpty($value)) { $value = $Default }
    return $value
}

# twin of gate_native_bin (the default's suffix is gate_exe_suffix's host form).
function Get-NativeBin {
    $default = 'bin/gates'
    if ($IsWindowsHost) { $default += '.exe' }
    return Get-PrebinaryKnob 'GATE_SDK_NATIVE_BIN' $default
}

# twin of gate_native_crate: trailing / stripped.
function Get-NativeCrate {
    $v = Get-PrebinaryKnob 'GATE_SDK_NATIVE_CRATE' '.'
    while ($v -ne '/' -and $v.EndsWith('/')) { $v = $v.Substring(0, $v.Length - 1) }
    return $v
}

# twin of _gate_bin_ready: an executable regular file.
function Test-BinReady([string]$P) {
    if ([string]::IsNullOrEmpty($P)) { return $false }
    $P = Get-Abs $P
    if (-not [System.IO.File]::Exists($P)) { return $false }
    if ($IsWindowsHost) { return $true }
    try {
        $mode = [System.IO.File]::GetUnixFileMode($P)
        return ([int]$mode -band 0x49) -ne 0
    } catch {
        & test -x $P
        return $LASTEXITCODE -eq 0
    }
}

# Resolves a path physically: each symbolic link or junction on it is
# followed before a later .. is applied. Answers $null when a part is absent.
function Get-Physical([string]$P, [int]$Depth = 0) {
    if ($Depth -gt 40) { return $null }
    $full = [System.IO.Path]::GetFullPath((Get-Abs $P))
    $root = [System.IO.Path]::GetPathRoot($full)
    $parts = $full.Substring($root.Length).Split(@('/', '\'), [System.StringSplitOptions]::RemoveEmptyEntries)
    $cur = $root
    foreach ($part in $parts) {
        if ($part -eq '.') { continue }
        if ($part -eq '..') { $cur = [System.IO.Path]::GetDirectoryName($cur.TrimEnd('/', '\')); if ($null -eq $cur) { $cur = $root }; continue }
        $next = [System.IO.Path]::Combine($cur, $part)
        $item = Get-Item -Force -LiteralPath $next -ErrorAction SilentlyContinue
        if ($null -eq $item) { return $null }
        $target = $null
        if ($item.Attributes -band [System.IO.FileAttributes]::ReparsePoint) {
            if ($item.PSObject.Properties['LinkTarget']) { $target = $item.LinkTarget } else { $target = @($item.Target)[0] }
        }
        if ($target) {
            if (-not (Test-PathRooted $target)) { $target = [System.IO.Path]::Combine($cur, $target) }
            $next = Get-Physical $target ($Depth + 1)
            if ($null -eq $next) { return $null }
        }
        $cur = $next
    }
    return $cur.Replace('\', '/').TrimEnd('/')
}

function Test-Entry([string]$P) {
    $P = Get-Abs $P
    return $null -ne (Get-Item -Force -LiteralPath $P -ErrorAction SilentlyContinue)
}

# twin of _gate_gitfile_target.
function Get-GitfileTarget([string]$File) {
    try { $line = ([System.IO.File]::ReadAllText($File).Split("`n"))[0].TrimEnd("`r") } catch { return $null }
    if (-not $line.StartsWith('gitdir:')) { return $null }
    $t = $line.Substring(7).TrimStart(' ')
    if (-not (Test-PathRooted $t)) { $t = [System.IO.Path]::Combine([System.IO.Path]::GetDirectoryName($File), $t) }
    return $t
}

# twin of gate_skipped_mark.
function Get-SkippedMark([string]$Top, [string]$Prefix) {
    if (-not [string]::IsNullOrEmpty($env:GIT_DIR)) { return $null }
    $run = $Prefix.TrimEnd('/')
    while ($run -ne '') {
        $entry = "$Top/$run/.git"
        if (Test-Entry $entry) {
            $phys = $null
            if ([System.IO.Directory]::Exists($entry)) { $phys = Get-Physical $entry }
            elseif ([System.IO.File]::Exists($entry)) {
                $t = Get-GitfileTarget $entry
                if ($t) { $phys = Get-Physical $t }
            }
            if ($phys) {
                $r = Invoke-Git @('rev-parse', '--absolute-git-dir')
                if ($r.Code -eq 0) {
                    $sel = Get-Physical ($r.Out.TrimEnd("`n").TrimEnd("`r"))
                    if ($sel -and $sel -ceq $phys) { return $null }
                }
            }
            return $entry
        }
        $i = $run.LastIndexOf('/')
        if ($i -lt 0) { $run = '' } else { $run = $run.Substring(0, $i) }
    }
    return $null
}

# twin of _gate_cwd_marked (ascending the logical path).
function Test-CwdMarked {
    if (-not [string]::IsNullOrEmpty($env:GIT_DIR)) { return $true }
    $ceilings = @()
    if ($env:GIT_CEILING_DIRECTORIES) {
        foreach ($c in $env:GIT_CEILING_DIRECTORIES.Split([System.IO.Path]::PathSeparator)) {
            if (Test-PathRooted $c) {
                $pc = Get-Physical $c
                if ($pc) { $ceilings += $pc } else { $ceilings += $c.Replace('\', '/').TrimEnd('/') }
            }
        }
    }
    $d = (Get-Location -PSProvider FileSystem).ProviderPath
    while ($d) {
        if (Test-Entry ([System.IO.Path]::Combine($d, '.git'))) { return $true }
        $parent = [System.IO.Path]::GetDirectoryName($d)
        if (-not $parent) { return $false }
        $pp = (Get-Physical $parent)
        if ($pp -and ($ceilings -ccontains $pp)) { return $false }
        $d = $parent
    }
    return $false
}

# twin of _gate_main_checkout_root.
function Get-MainCheckoutRoot {
    $r = Invoke-Git @('rev-parse', '--git-dir', '--git-common-dir')
    if ($r.Code -ne 0) { return $null }
    $lines = $r.Out.Replace("`r", '').Split("`n")
    if ($lines.Count -lt 2 -or -not $lines[0] -or -not $lines[1]) { return $null }
    $gd = Get-Physical $lines[0]
    $cd = Get-Physical $lines[1]
    if (-not $gd -or -not $cd -or $gd -ceq $cd) { return $null }
    if ($cd.Substring($cd.LastIndexOf('/') + 1) -cne '.git') { return $null }
    return $cd.Substring(0, $cd.Length - 5)
}

# twin of _gate_main_checkout_bin.
function Get-MainCheckoutBin {
    $main = Get-MainCheckoutRoot
    if (-not $main) { return $null }
    Push-Location -LiteralPath $main
    try { $bin = Get-NativeBin } finally { Pop-Location }
    if (Test-PathRooted $bin) { return $bin }
    if ($bin.StartsWith('./')) { $bin = $bin.Substring(2) }
    return "$main/$bin"
}

# twin of _gate_verdict_resolve: @(token, note-or-$null).
function Resolve-VerdictBin {
    $door = Get-NativeBin
    $spelled = Get-Spelled $door
    if (Test-BinReady $door) { return @($spelled, $null) }
    $main = Get-MainCheckoutRoot
    if (-not $main) { return @($spelled, $null) }
    $mainBin = Get-MainCheckoutBin
    if (-not $mainBin -or -not (Test-BinReady $mainBin)) {
        return @($spelled, "no main binary: the main checkout $main has no executable gates binary")
    }
    $ig = Invoke-Git @('check-ignore', '-q', '--', $door)
    if ($ig.Code -ne 0) {
        return @($spelled, "the door path $door is not ignored by git here, so no link is made into the tree")
    }
    $dir = Get-NativeCrate
    if ($dir -eq '' -or $dir -eq '.') { $gomod = 'go.mod' } elseif ($dir.EndsWith('/')) { $gomod = "${dir}go.mod" } else { $gomod = "$dir/go.mod" }
    if ([System.IO.File]::Exists((Get-Abs $gomod))) {
        $w = Invoke-Git @('rev-parse', '--short', 'HEAD')
        $want = ''
        if ($w.Code -eq 0) { $want = $w.Out.Trim() }
        $have = ''
        try { $have = (& $mainBin --source-stamp 2>$null | Out-String).Trim() } catch { $have = '' }
        if (-not $want -or $want -cne $have) {
            $h = $have; if (-not $h) { $h = 'an unknown source' }
            $wv = $want; if (-not $wv) { $wv = 'unreadable' }
            return @($spelled, "stamp skew: the main checkout's binary was built from $h, this tree is $wv")
        }
    }
    try {
        $parent = [System.IO.Path]::GetDirectoryName($door)
        if ($parent) { $null = New-Item -ItemType Directory -Force -Path $parent }
        try { $null = New-Item -ItemType SymbolicLink -Path $door -Target $mainBin } catch { Copy-Item -LiteralPath $mainBin -Destination $door }
        if (Test-BinReady $door) { return @($spelled, $null) }
    } catch { }
    return @($spelled, "the link to $mainBin could not be made at $door")
}

# twin of gate_harness_bin.
function Resolve-HarnessBin {
    $door = Get-NativeBin
    $spelled = Get-Spelled $door
    if (Test-BinReady $door) { return $spelled }
    $main = Get-MainCheckoutBin
    if ($main -and (Test-BinReady $main)) { return $main }
    return $spelled
}

# --- the stub proper -------------------------------------------------------

$here = $PSScriptRoot
$sdkDir = Get-Physical ([System.IO.Path]::GetDirectoryName($here))
if (-not $sdkDir -or -not [System.IO.File]::Exists("$sdkDir/lib/gate.sh")) {
    Invoke-Decline $EnvelopeBin @("cannot find lib/gate.sh beside this script ($PSCommandPath)")
}

$r = Invoke-Git @('rev-parse', '--show-toplevel', '--show-prefix')
if ($r.Code -eq 127) {
    Invoke-Decline $EnvelopeNoGit @('git is not installed or not on PATH; install git (the one program gates needs) or put it on PATH')
}
if ($r.Code -ne 0) {
    if (Test-CwdMarked) { Invoke-Decline $EnvelopeGit @('git refuses the repository here; run git status to see why') }
    Invoke-Decline $EnvelopeGit @('not inside a git repository')
}
$out = $r.Out
$nl = $out.IndexOf("`n")
if ($nl -lt 0) { Invoke-Decline $EnvelopeGit @('not inside a git repository') }
$top = $out.Substring(0, $nl).TrimEnd("`r")
$prefix = $out.Substring($nl + 1)
if ($prefix.EndsWith("`n")) { $prefix = $prefix.Substring(0, $prefix.Length - 1) }
$prefix = $prefix.TrimEnd("`r")

$mark = Get-SkippedMark $top $prefix
if ($mark) {
    Invoke-Decline $EnvelopeGit @("git skipped the nested repository at $mark and answered the one enclosing it; run git --git-dir=$mark status to see why")
}

if (-not $top) { $top = '/dev/null/no-toplevel' }
try { Set-Location -LiteralPath $top } catch {
    Invoke-Decline $EnvelopeGit @('cannot enter the repository toplevel git answered')
}
[System.Environment]::CurrentDirectory = (Get-Location -PSProvider FileSystem).ProviderPath
$topPhys = Get-Physical $top

if ($sdkDir -ceq $topPhys) { $sdkRoot = '.' }
elseif ($sdkDir.StartsWith($topPhys + '/', [System.StringComparison]::Ordinal)) { $sdkRoot = $sdkDir.Substring($topPhys.Length + 1) }
else { $sdkRoot = $sdkDir }
$env:GATE_SDK_ROOT = $sdkRoot

$note = $null
if ($ArmUnavailableStatus -eq 0) {
    $bin = Resolve-HarnessBin
} else {
    $res = Resolve-VerdictBin
    $bin = $res[0]
    $note = $res[1]
}
if (-not (Test-BinReady $bin)) {
    if ($note) {
        Invoke-Decline $EnvelopeBin @(
            "the gates binary $bin is absent or not executable; this is a linked worktree, so build or install the gates binary in the main checkout and run it there, or point GATE_SDK_NATIVE_BIN at it",
            "no link to the main checkout's binary: $note")
    }
    Invoke-Decline $EnvelopeBin @("the gates binary $bin is absent or not executable; build or install the gates binary, or point GATE_SDK_NATIVE_BIN at it")
}
# twin of _gate_bin_answers: the file proves it is the gates binary (the
# nonce echoed after a fixed lead) before the stub hands over.
$nonce = "$PID.$(Get-Random)"
$reply = $null
try { $reply = (& $bin --handshake $nonce 2>$null | Select-Object -First 1) } catch { $reply = $null }
if ($reply -ne "gates-handshake $nonce") {
    Invoke-Decline $EnvelopeBin @("the gates binary $bin does not answer as the gates binary (empty, truncated or another program); rebuild or reinstall it, or point GATE_SDK_NATIVE_BIN at a working one")
}

$argv = @($args)
if ($argv.Count -eq 0) {
    $argv = @('--run')
} elseif (-not ([string]$argv[0]).StartsWith('-')) {
    $dirArg = [string]$argv[0]
    if ($prefix -and -not (Test-PathRooted $dirArg)) { $dirArg = $prefix + $dirArg }
    $argv = @('--run', $dirArg) + @($argv | Select-Object -Skip 1)
}
& $bin @argv
exit $LASTEXITCODE
