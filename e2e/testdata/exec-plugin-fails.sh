#!/bin/sh
# A kubeconfig exec credential plugin that cannot log in.
echo "exec plugin: login required, run the vendor's login command" >&2
exit 1
