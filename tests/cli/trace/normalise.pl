#!/usr/bin/perl
# tests/cli/trace/normalise.pl — `beamlet trace` text output made comparable: the time stamp
# goes, the label column becomes "WHO | " followed by the call-depth indentation, pids are
# numbered by first appearance (<P1>, <P2>, ...), ports too (#Port<1>, ...), refs become #Ref<R>, the directory where
# beamlet compiled the program (seen when OTP's code server searches the path) becomes <CACHE>.
use strict;
use warnings;

my (%pids, $n, %ports, $np);
while (my $line = <>) {
    chomp $line;
    if ($line =~ /^\s*\d+\.\d{6} (<\d+\.\d+\.\d+>(?: \S+)?|#Port<\d+\.\d+>(?: \S+)?)( +)(.*)$/) {
        my ($who, $spaces, $what) = ($1, length $2, $3);
        my $pad = length($who) < 28 ? 28 - length($who) : 0;   # the label column is 28 wide
        my $indent = int(($spaces - $pad - 1) / 2);
        $line = "$who | " . ("  " x $indent) . $what;
    }
    $line =~ s/<\d+\.\d+\.\d+>/$pids{$&} \/\/= "<P" . ++$n . ">"/ge;
    $line =~ s/#Port<\d+\.\d+>/$ports{$&} \/\/= "#Port<" . ++$np . ">"/ge;
    $line =~ s/#Ref<[\d.]+>/#Ref<R>/g;
    $line =~ s{/[^"]*/(?:beamlet-cache-\d+|beamlet/erlc)/[0-9a-f]{16}}{<CACHE>}g;
    print "$line\n";
}
