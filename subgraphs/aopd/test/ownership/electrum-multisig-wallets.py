"""Creates the two signing cosigners of a 2-of-3 P2WSH multisig wallet with Electrum's own code,
as its wizard does (wallet_type "2of3", keystores x1/..x3/, one of them with its private key),
offline, and prints the wallet's first receiving address. Used by electrum-psbt-proof.test.ts;
run with the Python that has Debian's `electrum` package (/usr/bin/python3)."""
import hashlib
import sys

from electrum import bip32, keystore
from electrum.simple_config import SimpleConfig
from electrum.storage import WalletStorage
from electrum.util import create_and_start_event_loop
from electrum.wallet import Wallet
from electrum.wallet_db import WalletDB

folder = sys.argv[1]
loop, stop_loop, loop_thread = create_and_start_event_loop()
config = SimpleConfig({"cwd": folder, "electrum_path": folder, "offline": True})
# BIP-48 multisig accounts (m/48'/0'/0'/2', native segwit) of three fixed test seeds.
nodes = [
    bip32.BIP32Node.from_rootseed(hashlib.sha256(b"electrum cosigner %d" % i).digest(), xtype="p2wsh")
    .subkey_at_private_derivation("m/48'/0'/0'/2'")
    for i in range(3)
]
addresses = set()
for signer in range(2):
    db = WalletDB("", manual_upgrades=False)
    db.put("wallet_type", "2of3")
    for i, node in enumerate(nodes):
        key = node.to_xprv() if i == signer else node.to_xpub()
        db.put("x%d/" % (i + 1), keystore.from_master_key(key).dump())
    db.load_plugins()
    wallet = Wallet(db, WalletStorage("%s/cosigner%d" % (folder, signer)), config=config)
    wallet.synchronize()
    wallet.save_db()
    addresses.add(wallet.get_receiving_addresses()[0])
assert len(addresses) == 1, "both cosigners must see the same vault"
print(addresses.pop())
loop.call_soon_threadsafe(stop_loop.set_result, 1)
loop_thread.join(timeout=10)
