#!/bin/sh
# A kubeconfig exec credential plugin, as EKS, GKE, AKS and OIDC helpers are: it talks on stderr and prints an
# ExecCredential with the token it was given in KSCOPE_TEST_TOKEN.
echo "exec plugin: fetching a token for kscope" >&2
printf '{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"%s"}}\n' "$KSCOPE_TEST_TOKEN"
