#ifndef CLARISSA_COPENSSL_SHIM_H
#define CLARISSA_COPENSSL_SHIM_H

/* What Web Push needs of OpenSSL 3's libcrypto (the one libcurl already links), each a whole
 * operation over byte buffers so that no OpenSSL object crosses into Swift: P-256 public keys
 * from private ones, ECDH, ECDSA-SHA256 as raw r||s, HKDF-SHA256 and AES-128-GCM. Each returns
 * 1 on success and 0 on any failure (a key off the curve, a scalar out of range). Only the
 * APIs OpenSSL 3 does not deprecate are used (EVP, EC_POINT, ECDSA_SIG, OSSL_PARAM). */
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/kdf.h>
#include <openssl/obj_mac.h>
#include <openssl/param_build.h>
#include <openssl/rand.h>
#include <string.h>

/* `count` random bytes from OpenSSL's private generator. */
static inline int clarissa_random(unsigned char *out, size_t count) {
  return RAND_priv_bytes(out, (int)count) == 1;
}

/* The uncompressed public key (65 bytes, 0x04 || x || y) of the P-256 private scalar
 * `private_key` (32 bytes, big-endian); 0 when the scalar is 0 or not below the group order. */
static inline int clarissa_p256_public(const unsigned char *private_key, unsigned char *out) {
  int ok = 0;
  EC_GROUP *group = EC_GROUP_new_by_curve_name(NID_X9_62_prime256v1);
  BIGNUM *scalar = BN_bin2bn(private_key, 32, NULL);
  EC_POINT *point = group ? EC_POINT_new(group) : NULL;
  if (group && scalar && point && !BN_is_zero(scalar)
      && BN_cmp(scalar, EC_GROUP_get0_order(group)) < 0
      && EC_POINT_mul(group, point, scalar, NULL, NULL, NULL) == 1
      && EC_POINT_point2oct(group, point, POINT_CONVERSION_UNCOMPRESSED, out, 65, NULL) == 65) {
    ok = 1;
  }
  EC_POINT_free(point);
  BN_clear_free(scalar);
  EC_GROUP_free(group);
  return ok;
}

/* Whether `public_key` (65 bytes) is an uncompressed point on P-256 (not the point at
 * infinity). */
static inline int clarissa_p256_valid(const unsigned char *public_key) {
  if (public_key[0] != 0x04) return 0;
  EC_GROUP *group = EC_GROUP_new_by_curve_name(NID_X9_62_prime256v1);
  EC_POINT *point = group ? EC_POINT_new(group) : NULL;
  int ok = group && point && EC_POINT_oct2point(group, point, public_key, 65, NULL) == 1
      && EC_POINT_is_on_curve(group, point, NULL) == 1
      && EC_POINT_is_at_infinity(group, point) == 0;
  EC_POINT_free(point);
  EC_GROUP_free(group);
  return ok;
}

/* An EVP_PKEY of P-256 from a private scalar with its public key, or from a public key alone
 * (`private_key` NULL); NULL on failure. */
static inline EVP_PKEY *clarissa_p256_key(
    const unsigned char *private_key, const unsigned char *public_key) {
  EVP_PKEY *key = NULL;
  OSSL_PARAM_BLD *build = OSSL_PARAM_BLD_new();
  BIGNUM *scalar = private_key ? BN_bin2bn(private_key, 32, NULL) : NULL;
  OSSL_PARAM *params = NULL;
  EVP_PKEY_CTX *context = EVP_PKEY_CTX_new_from_name(NULL, "EC", NULL);
  if (build && context && (private_key == NULL || scalar)
      && OSSL_PARAM_BLD_push_utf8_string(build, OSSL_PKEY_PARAM_GROUP_NAME, "prime256v1", 0)
      && OSSL_PARAM_BLD_push_octet_string(build, OSSL_PKEY_PARAM_PUB_KEY, public_key, 65)
      && (scalar == NULL || OSSL_PARAM_BLD_push_BN(build, OSSL_PKEY_PARAM_PRIV_KEY, scalar))
      && (params = OSSL_PARAM_BLD_to_param(build)) != NULL
      && EVP_PKEY_fromdata_init(context) == 1) {
    int selection = private_key ? EVP_PKEY_KEYPAIR : EVP_PKEY_PUBLIC_KEY;
    if (EVP_PKEY_fromdata(context, &key, selection, params) != 1) key = NULL;
  }
  EVP_PKEY_CTX_free(context);
  OSSL_PARAM_free(params);
  BN_clear_free(scalar);
  OSSL_PARAM_BLD_free(build);
  return key;
}

/* ECDH on P-256: the 32-byte shared secret of our key pair and the peer's public key. */
static inline int clarissa_p256_ecdh(
    const unsigned char *private_key, const unsigned char *public_key,
    const unsigned char *peer_public, unsigned char *out) {
  if (!clarissa_p256_valid(peer_public)) return 0;
  EVP_PKEY *own = clarissa_p256_key(private_key, public_key);
  EVP_PKEY *peer = clarissa_p256_key(NULL, peer_public);
  EVP_PKEY_CTX *context = own ? EVP_PKEY_CTX_new_from_pkey(NULL, own, NULL) : NULL;
  size_t length = 32;
  int ok = own && peer && context && EVP_PKEY_derive_init(context) == 1
      && EVP_PKEY_derive_set_peer(context, peer) == 1
      && EVP_PKEY_derive(context, out, &length) == 1 && length == 32;
  EVP_PKEY_CTX_free(context);
  EVP_PKEY_free(peer);
  EVP_PKEY_free(own);
  return ok;
}

/* ECDSA over SHA-256 of `message` with our P-256 key pair: the signature as JWS wants it,
 * r || s, each 32 bytes big-endian (64 in all), not DER. */
static inline int clarissa_p256_sign(
    const unsigned char *private_key, const unsigned char *public_key,
    const unsigned char *message, size_t length, unsigned char *out) {
  EVP_PKEY *key = clarissa_p256_key(private_key, public_key);
  EVP_MD_CTX *digest = EVP_MD_CTX_new();
  unsigned char der[80];
  size_t der_length = sizeof der;
  int ok = 0;
  if (key && digest && EVP_DigestSignInit_ex(digest, NULL, "SHA256", NULL, NULL, key, NULL) == 1
      && EVP_DigestSign(digest, der, &der_length, message, length) == 1) {
    const unsigned char *cursor = der;
    ECDSA_SIG *signature = d2i_ECDSA_SIG(NULL, &cursor, (long)der_length);
    if (signature) {
      const BIGNUM *r = NULL, *s = NULL;
      ECDSA_SIG_get0(signature, &r, &s);
      ok = BN_bn2binpad(r, out, 32) == 32 && BN_bn2binpad(s, out + 32, 32) == 32;
      ECDSA_SIG_free(signature);
    }
  }
  EVP_MD_CTX_free(digest);
  EVP_PKEY_free(key);
  return ok;
}

/* HKDF-SHA256 (RFC 5869), extract then expand: `length` bytes (at most 255 * 32). */
static inline int clarissa_hkdf_sha256(
    const unsigned char *salt, size_t salt_length, const unsigned char *key, size_t key_length,
    const unsigned char *info, size_t info_length, unsigned char *out, size_t length) {
  EVP_KDF *kdf = EVP_KDF_fetch(NULL, "HKDF", NULL);
  EVP_KDF_CTX *context = kdf ? EVP_KDF_CTX_new(kdf) : NULL;
  OSSL_PARAM params[5];
  params[0] = OSSL_PARAM_construct_utf8_string(OSSL_KDF_PARAM_DIGEST, (char *)"SHA256", 0);
  params[1] = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_SALT, (void *)salt, salt_length);
  params[2] = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_KEY, (void *)key, key_length);
  params[3] = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_INFO, (void *)info, info_length);
  params[4] = OSSL_PARAM_construct_end();
  int ok = context && EVP_KDF_derive(context, out, length, params) == 1;
  EVP_KDF_CTX_free(context);
  EVP_KDF_free(kdf);
  return ok;
}

/* AES-128-GCM with a 12-byte nonce and no associated data: `length` bytes of `plain` become
 * as many of ciphertext followed by the 16-byte tag in `out` (`length` + 16 bytes). */
static inline int clarissa_aes128gcm_seal(
    const unsigned char *key, const unsigned char *nonce, const unsigned char *plain,
    size_t length, unsigned char *out) {
  EVP_CIPHER_CTX *context = EVP_CIPHER_CTX_new();
  int written = 0, tail = 0;
  int ok = context && length <= 0x7fffffff
      && EVP_EncryptInit_ex(context, EVP_aes_128_gcm(), NULL, NULL, NULL) == 1
      && EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_SET_IVLEN, 12, NULL) == 1
      && EVP_EncryptInit_ex(context, NULL, NULL, key, nonce) == 1
      && EVP_EncryptUpdate(context, out, &written, plain, (int)length) == 1
      && EVP_EncryptFinal_ex(context, out + written, &tail) == 1
      && (size_t)(written + tail) == length
      && EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_GET_TAG, 16, out + length) == 1;
  EVP_CIPHER_CTX_free(context);
  return ok;
}

#endif
