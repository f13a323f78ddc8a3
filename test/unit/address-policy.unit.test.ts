import test from 'ava';
import { isNonPublicAddress, mappedIpv4, parseHostAllowList } from '../../src/lib/address-policy.ts';

test('loopback, private, CGNAT, link-local (metadata), multicast, unspecified and reserved addresses are not public', (t) => {
  const inside = [
    '127.0.0.1', '127.255.0.9', '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.1', '100.64.0.1', '100.100.100.200',
    '169.254.169.254', '0.0.0.0', '224.0.0.1', '239.255.255.250', '255.255.255.255', '240.0.0.1', '198.18.0.1', '192.0.2.1',
    '::', '::1', 'fe80::1', 'fc00::1', 'fd00:ec2::254', 'ff02::1', '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:169.254.169.254',
    '0:0:0:0:0:ffff:a00:1', '64:ff9b::7f00:1', '2002:7f00:1::', '2001:db8::1', '::127.0.0.1', 'not an address',
  ];
  for (const address of inside) t.true(isNonPublicAddress(address), address);
});

test('public addresses are public, including one written as IPv4-mapped IPv6', (t) => {
  for (const address of ['8.8.8.8', '1.1.1.1', '93.184.216.34', '172.32.0.1', '100.128.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8']) t.false(isNonPublicAddress(address), address);
});

test('mapped IPv4 is read in both spellings', (t) => {
  t.is(mappedIpv4('::ffff:127.0.0.1'), '127.0.0.1');
  t.is(mappedIpv4('::ffff:7f00:1'), '127.0.0.1');
  t.is(mappedIpv4('::ffff:a9fe:a9fe'), '169.254.169.254');
  t.is(mappedIpv4('2001:db8::1'), undefined);
});

test('the allow-list takes names, subdomain patterns, addresses and CIDR ranges', (t) => {
  const allow = parseHostAllowList(['internal.example', '.corp.example', '*.svc.local', '10.0.0.0/8', '127.0.0.1', '[fd00::]/8']);
  t.true(allow.allowsName('internal.example'));
  t.true(allow.allowsName('INTERNAL.example.'));
  t.false(allow.allowsName('evil-internal.example'));
  t.true(allow.allowsName('a.corp.example'));
  t.true(allow.allowsName('x.y.svc.local'));
  t.false(allow.allowsName('corp.example.evil'));
  t.true(allow.allowsAddress('10.9.8.7'));
  t.true(allow.allowsAddress('::ffff:10.9.8.7'));
  t.true(allow.allowsAddress('127.0.0.1'));
  t.false(allow.allowsAddress('127.0.0.2'));
  t.true(allow.allowsAddress('fd12::1'));
  t.false(allow.allowsAddress('169.254.169.254'));
});

test('a mistyped entry is refused, naming it', (t) => {
  t.throws(() => parseHostAllowList(['10.0.0.0/33']), { message: /10\.0\.0\.0\/33/ });
  t.throws(() => parseHostAllowList(['http://host/']), { message: /http:\/\/host\// });
});
